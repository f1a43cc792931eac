import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord } from '@tool-search/core/internal';

/**
 * The model writes a program that calls these tools all at once: Anthropic's code
 * execution (a `server_tool_use` and `tool_use` blocks whose `caller` names it, with a
 * container), OpenAI's programmatic tool calling (a `program` item and `function_call`
 * items whose `caller` is the program). The next request must answer every call (and, on
 * Anthropic, pass the container back; on OpenAI, carry the `program` item back with its
 * fingerprint); the program then ends and its output is the results it got, which the
 * next step's reply quotes.
 */
export interface ProgramStep {
  program: readonly { call: string; input: Record<string, unknown> }[];
  /**
   * Play a platform that does not enforce `allowed_callers`: the program may call tools
   * not offered to programs, to test the client's own enforcement. @defaultValue false
   */
  ignoreAllowedCallers?: boolean;
  /** Send this `caller` on every nested call instead of the real one, to test forged callers. */
  caller?: unknown;
}

/** One step of the scripted model of a stand-in. */
export type ScriptedStep =
  /** The model searches for tools (our client search tool, or the platform's hosted one). */
  | { search: string; limit?: number }
  /** The model calls a tool by the name it was sent under; it must be loaded by then. */
  | { call: string; input: Record<string, unknown> }
  /** The model ends the turn with this text, followed by the last tool result it saw. */
  | { reply: string }
  /** The model runs a program that calls tools (see {@link ProgramStep}). */
  | ProgramStep;

/** Options of the stand-ins. */
export interface StandInOptions {
  /** What the model does, one step per request (a hosted search and the call after it share one). */
  steps: readonly ScriptedStep[];
}

/** A running stand-in of a provider API on a local port. */
export interface StandIn {
  /** The base URL to give the SDK client (`baseURL`). */
  readonly url: string;
  /** Every request body received, in order. */
  readonly requests: readonly unknown[];
  /**
   * Every rule a request broke, in order; such a request was answered with HTTP 400 in
   * the provider's error shape, so the SDK call rejects.
   */
  readonly violations: readonly string[];
  /**
   * Stops the server.
   * @returns when it has stopped
   */
  close(): Promise<void>;
}

/** What a stand-in's handler answers: the response body, or the rules the request broke. */
export type StandInAnswer = { ok: true; body: unknown } | { ok: false; violations: string[] };

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Starts a local HTTP server that answers POSTs on `paths` with `handle`, records every
 * body and every violation, and answers 400 in the provider's `errorBody` shape.
 *
 * @param paths - the routes, e.g. `/v1/messages`, or a pattern of them
 * @param handle - the request checks and the scripted model
 * @param errorBody - the provider's error body for a message
 * @returns the running stand-in
 * @throws nothing (a handler that throws is recorded as a violation)
 */
export async function startStandIn(
  paths: readonly string[] | RegExp,
  handle: (body: unknown, path: string, headers: IncomingMessage['headers']) => StandInAnswer,
  errorBody: (message: string) => unknown,
): Promise<StandIn> {
  const requests: unknown[] = [];
  const violations: string[] = [];
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const path = (request.url ?? '').split('?')[0] ?? '';
    const known = Array.isArray(paths) ? paths.includes(path) : (paths as RegExp).test(path);
    if (request.method !== 'POST' || !known) {
      send(404, errorBody(`No route ${request.method} ${path}`));
      return;
    }
    readBody(request).then(
      (body) => {
        requests.push(body);
        let answer: StandInAnswer;
        try {
          answer = handle(body, path, request.headers);
        } catch (error) {
          answer = { ok: false, violations: [`stand-in failed: ${String(error)}`] };
        }
        if (answer.ok) send(200, answer.body);
        else {
          violations.push(...answer.violations);
          send(400, errorBody(answer.violations.join('; ')));
        }
      },
      (error: unknown) => {
        violations.push(`body is not JSON: ${String(error)}`);
        send(400, errorBody('body is not JSON'));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Words of a text, lowercased, identifiers split: the stand-ins' own naive search.
 * @param text - any text
 * @returns its words
 */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The platform's hosted search, played naively: tools sharing most query words first.
 * @param tools - the deferred tools of the request
 * @param query - the query
 * @param limit - the most tools @defaultValue 5
 * @returns the tools found
 */
export function naiveSearch<T extends { name: string; description?: string | null }>(
  tools: readonly T[],
  query: string,
  limit = 5,
): T[] {
  const wanted = new Set(words(query));
  return tools
    .map((tool, index) => ({
      tool,
      index,
      score: words(`${tool.name} ${tool.description ?? ''}`).filter((word) => wanted.has(word))
        .length,
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.tool);
}

/**
 * The rules of OpenAI's strict mode, checked on one schema.
 * @param schema - a function's parameters
 * @param path - where the schema sits, for the messages
 * @returns what breaks the rules (empty when none)
 */
export function strictProblems(schema: unknown, path = 'parameters'): string[] {
  if (!isRecord(schema)) return [];
  const problems: string[] = [];
  const type = schema['type'];
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (isObject) {
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required']) ? schema['required'] : [];
    if (schema['additionalProperties'] !== false) {
      problems.push(`${path}: additionalProperties must be false`);
    }
    for (const name of Object.keys(properties)) {
      if (!required.includes(name)) problems.push(`${path}.${name} is not required`);
      problems.push(...strictProblems(properties[name], `${path}.${name}`));
    }
  }
  if (schema['oneOf'] !== undefined) problems.push(`${path}: oneOf is not allowed`);
  if (Array.isArray(schema['anyOf'])) {
    schema['anyOf'].forEach((branch, index) => {
      problems.push(...strictProblems(branch, `${path}.anyOf[${index}]`));
    });
  }
  if (schema['items'] !== undefined) problems.push(...strictProblems(schema['items'], `${path}[]`));
  return problems;
}

/**
 * What a program step's calls break, as the platform sees them: each called tool must be
 * loaded, and (unless the step plays a platform that ignores it) list the program caller
 * in its `allowed_callers`.
 *
 * @param step - the program step
 * @param loaded - the names loaded at this point
 * @param definitionOf - a loaded tool's definition as the request sent it
 * @param caller - the program caller value (`code_execution_20260120`, `programmatic`)
 * @returns the rules broken
 */
export function programCallProblems(
  step: ProgramStep,
  loaded: ReadonlySet<string>,
  definitionOf: (name: string) => Record<string, unknown> | undefined,
  caller: string,
): string[] {
  const problems: string[] = [];
  for (const { call } of step.program) {
    const callers = definitionOf(call)?.['allowed_callers'];
    if (!loaded.has(call)) problems.push(`the program called '${call}', which is not loaded`);
    else if (
      step.ignoreAllowedCallers !== true &&
      !(Array.isArray(callers) && callers.includes(caller))
    ) {
      problems.push(`the program called '${call}', whose allowed_callers do not name ${caller}`);
    }
  }
  return problems;
}
