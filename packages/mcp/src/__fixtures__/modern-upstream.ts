import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  acceptedContent,
  type CallToolResult,
  createMcpHandler,
  fromJsonSchema,
  type GetPromptResult,
  type InputRequiredResult,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';

/** What the modern stand-in saw and does; the tests steer it through this. */
export interface ModernUpstream {
  /** The MCP endpoint, on loopback. */
  url: string;
  /** The headers of every POST, in order. */
  requests: { method: string | undefined; headers: Record<string, string> }[];
  /** The names of the `wait` calls that were cancelled. */
  cancelled: string[];
  /** Extra tools the server serves (change it, then `notify()`). */
  extra: string[];
  /** What each retry of an asking tool carried: the answer keys and the echoed requestState. */
  answered: { tool: string; keys: string[]; requestState: string | undefined }[];
  /** Publishes `tools/list_changed` to the open listen streams. */
  notify(): void;
  /** The prompts the server serves (change it, then `notifyPrompts()`). */
  prompts: string[];
  /** Publishes `prompts/list_changed` to the open listen streams. */
  notifyPrompts(): void;
  /** Publishes `resources/updated` of a URI to the listen streams that subscribed to it. */
  updated(uri: string): void;
  close(): Promise<void>;
}

/** Options of {@link serveModernUpstream}. */
export interface ModernUpstreamOptions {
  /** `reject`: the server refuses the 2025 handshake (2026-07-28 only). @defaultValue 'reject' */
  legacy?: 'reject' | 'stateless';
  /** The cache hints of `tools/list`. */
  listHint?: { ttlMs?: number; cacheScope?: 'public' | 'private' };
  /** Serve a prompt `briefing` that asks for a topic (`input_required`) before it answers. */
  askingPrompt?: boolean;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

function buildServer(
  state: Pick<ModernUpstream, 'cancelled' | 'extra' | 'prompts'> &
    Partial<Pick<ModernUpstream, 'answered'>>,
  options: ModernUpstreamOptions,
) {
  const server = new McpServer(
    { name: 'modern-fixture', version: '1.0.0' },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      ...(options.listHint === undefined ? {} : { cacheHints: { 'tools/list': options.listHint } }),
    },
  );
  server.registerResource('status', 'modern://status', { description: 'A status' }, (uri) => ({
    contents: [{ uri: uri.href, text: 'all good' }],
  }));
  server.registerTool(
    'echo',
    {
      description: 'Echoes a message back',
      inputSchema: fromJsonSchema<{ message: string }>({
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      }),
    },
    async ({ message }) => text(`modern echo: ${message}`),
  );
  server.registerTool(
    'regional',
    {
      description: 'Looks an item up in a region (the region travels as a header)',
      inputSchema: fromJsonSchema<{ region: string; item: string }>({
        type: 'object',
        properties: {
          // The SEP-2243 extension keyword is not in the JSON Schema type.
          region: { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' },
          item: { type: 'string' },
        },
        required: ['region', 'item'],
      }),
    },
    async ({ region, item }) => text(`${item} in ${region}`),
  );
  server.registerTool(
    'confirm',
    {
      description: 'Runs an action after a person confirms it',
      inputSchema: fromJsonSchema<{ action: string }>({
        type: 'object',
        properties: { action: { type: 'string' } },
        required: ['action'],
      }),
    },
    async ({ action }, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const responses = ctx.mcpReq.inputResponses;
      if (responses !== undefined) {
        const requestState = ctx.mcpReq.requestState();
        state.answered?.push({
          tool: 'confirm',
          keys: Object.keys(responses).sort(),
          requestState: typeof requestState === 'string' ? requestState : undefined,
        });
      }
      const answer = acceptedContent<{ ok: boolean }>(ctx.mcpReq.inputResponses, 'ok');
      if (answer?.ok === true) return text(`done: ${action}`);
      if (answer !== undefined) return { ...text(`declined: ${action}`), isError: true };
      return inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: `Run ${action}?`,
            requestedSchema: {
              type: 'object',
              properties: { ok: { type: 'boolean' } },
              required: ['ok'],
            },
          }),
        },
        requestState: `state-of-${action}`,
      });
    },
  );
  server.registerTool(
    'huge',
    { description: 'Asks with a requestState too large to carry' },
    async (): Promise<InputRequiredResult> =>
      inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: 'Sure?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          }),
        },
        requestState: 'x'.repeat(40_000),
      }),
  );
  server.registerTool(
    'collide',
    { description: 'Asks under the key the gateway uses for approvals' },
    async (ctx): Promise<CallToolResult | InputRequiredResult> => {
      const responses = ctx.mcpReq.inputResponses;
      if (responses !== undefined) {
        state.answered?.push({
          tool: 'collide',
          keys: Object.keys(responses).sort(),
          requestState: undefined,
        });
        return text(`answered: ${Object.keys(responses).sort().join(',')}`);
      }
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicit({
            message: 'Approve?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          }),
        },
      });
    },
  );
  server.registerTool(
    'sample',
    { description: 'Asks the client to sample its model' },
    async (ctx): Promise<CallToolResult | InputRequiredResult> => {
      const answer = ctx.mcpReq.inputResponses?.['capital'] as
        | { content?: { text?: string } }
        | undefined;
      if (answer !== undefined) return text(`sampled: ${answer.content?.text ?? '?'}`);
      return inputRequired({
        inputRequests: {
          capital: {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
              maxTokens: 20,
            },
          },
        },
      });
    },
  );
  server.registerTool(
    'forever',
    { description: 'Asks for input, whatever it is told' },
    async (): Promise<InputRequiredResult> =>
      inputRequired({
        inputRequests: {
          again: inputRequired.elicit({
            message: 'One more thing?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          }),
        },
      }),
  );
  server.registerTool(
    'busy',
    { description: 'Answers "call again later" (a requestState alone), every time' },
    async (ctx): Promise<InputRequiredResult> => {
      const round = Number(ctx.mcpReq.requestState() ?? '0') + 1;
      return inputRequired({ requestState: String(round) });
    },
  );
  server.registerTool(
    'wait',
    {
      description: 'Runs until it is cancelled',
      inputSchema: fromJsonSchema<{ label: string }>({
        type: 'object',
        properties: { label: { type: 'string' } },
        required: ['label'],
      }),
    },
    async ({ label }, ctx) => {
      await new Promise<void>((resolve) => {
        ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      state.cancelled.push(label);
      return text(`cancelled ${label}`);
    },
  );
  if (options.askingPrompt === true) {
    server.registerPrompt(
      'briefing',
      { description: 'A briefing on a topic the user gives' },
      async (ctx): Promise<GetPromptResult | InputRequiredResult> => {
        const topic = acceptedContent<{ topic: string }>(ctx.mcpReq.inputResponses, 'topic');
        if (topic === undefined) {
          return inputRequired({
            inputRequests: {
              topic: inputRequired.elicit({
                message: 'Which topic?',
                requestedSchema: { type: 'object', properties: { topic: { type: 'string' } } },
              }),
            },
            requestState: 'prompt-state',
          });
        }
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: `Brief me on ${topic.topic}` } },
          ],
        };
      },
    );
  }
  for (const name of state.extra) {
    server.registerTool(name, { description: `The extra tool ${name}` }, async () => text(name));
  }
  for (const name of state.prompts) {
    server.registerPrompt(name, { description: `The prompt ${name}` }, async () => ({
      messages: [{ role: 'user', content: { type: 'text', text: `prompt ${name}` } }],
    }));
  }
  return server;
}

async function toRequest(req: IncomingMessage, res: ServerResponse, url: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  const controller = new AbortController();
  // The client went away (an aborted fetch) before the answer was written.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(new URL(req.url ?? '/', url), {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
  });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  res.on('close', () => body.destroy());
  body.on('error', () => res.destroy());
  body.pipe(res);
}

/**
 * A real MCP SDK v2 server (`createMcpHandler`) on loopback in this process: by default it
 * serves 2026-07-28 only (`legacy: 'reject'`), as a modern-only upstream would.
 *
 * @param options - see {@link ModernUpstreamOptions}
 * @returns the running stand-in
 */
export async function serveModernUpstream(
  options: ModernUpstreamOptions = {},
): Promise<ModernUpstream> {
  const state = {
    cancelled: [] as string[],
    extra: [] as string[],
    prompts: ['greet'],
    answered: [] as ModernUpstream['answered'],
  };
  const handler = createMcpHandler(() => buildServer(state, options), {
    legacy: options.legacy ?? 'reject',
  });
  const requests: ModernUpstream['requests'] = [];
  const http = createServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    if (req.method === 'POST') requests.push({ method: headers['mcp-method'], headers });
    void toRequest(req, res, url)
      .then((request) => handler.fetch(request))
      .then((response) => send(response, res))
      .catch(() => res.destroy());
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    requests,
    cancelled: state.cancelled,
    extra: state.extra,
    answered: state.answered,
    notify: () => handler.notify.toolsChanged(),
    prompts: state.prompts,
    notifyPrompts: () => handler.notify.promptsChanged(),
    updated: (uri) => handler.notify.resourceUpdated(uri),
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * The same modern-only server as an in-process entry (`{ transport }`): a Streamable HTTP
 * client transport whose `fetch` is the handler's own, so no socket is opened.
 *
 * @returns the entry and the handler's `close`
 */
export function modernInProcess() {
  const state = { cancelled: [] as string[], extra: [] as string[], prompts: ['greet'] };
  const handler = createMcpHandler(() => buildServer(state, {}), { legacy: 'reject' });
  return {
    entry: {
      transport: () =>
        new StreamableHTTPClientTransport(new URL('http://in-process.invalid/mcp'), {
          fetch: (url, init) => handler.fetch(new Request(url, init)),
        }),
    },
    close: () => handler.close(),
  };
}
