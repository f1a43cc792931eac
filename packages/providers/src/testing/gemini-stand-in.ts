import { isRecord } from '@tool-search/core/internal';
import { GEMINI_NAME, readDeclarations } from './gemini-rules.js';
import {
  naiveSearch,
  type ScriptedStep,
  type StandIn,
  type StandInAnswer,
  startStandIn,
} from './stand-in-server.js';

/** One step of the Gemini stand-in's model: a scripted step, or calls made in parallel. */
export type GeminiScriptedStep =
  | Exclude<ScriptedStep, { program: unknown }>
  | { calls: readonly { call: string; input: Record<string, unknown> }[] };

/** Options of {@link startGeminiStandIn}. */
export interface GeminiStandInOptions {
  /** What the model does, one step per request (a server search and the call after it share one). */
  steps: readonly GeminiScriptedStep[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

// generateContent: every model turn's calls answered by the next user turn, in full, and
// each call sent back with the thought signature it came with (Gemini 3 refuses it without).
function readContents(
  raw: unknown,
  problems: string[],
  signatures: ReadonlyMap<string, string>,
): string {
  let lastResult = '';
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push('contents: must be a non-empty array');
    return lastResult;
  }
  let open: { name: string; id?: string }[] = [];
  for (const [index, content] of raw.entries()) {
    const parts = isRecord(content) && Array.isArray(content['parts']) ? content['parts'] : [];
    const calls = parts.flatMap((part) =>
      isRecord(part) && isRecord(part['functionCall']) ? [part['functionCall']] : [],
    );
    for (const part of parts) {
      if (!isRecord(part) || !isRecord(part['functionCall'])) continue;
      const expected = signatures.get(String(part['functionCall']['id']));
      if (expected !== undefined && part['thoughtSignature'] !== expected) {
        problems.push(
          `contents[${index}]: a function call came back without its thought signature`,
        );
      }
    }
    const responses = parts.flatMap((part) =>
      isRecord(part) && isRecord(part['functionResponse']) ? [part['functionResponse']] : [],
    );
    if (open.length > 0 && responses.length !== open.length) {
      problems.push(
        `contents[${index}]: ${open.length} function calls need as many function responses`,
      );
    }
    responses.forEach((response, position) => {
      const expected = open[position];
      if (
        expected === undefined ||
        response['name'] !== expected.name ||
        response['id'] !== expected.id
      ) {
        problems.push(
          `contents[${index}]: functionResponse '${String(response['name'])}' answers no call`,
        );
      }
      if (!isRecord(response['response']))
        problems.push(`contents[${index}]: response must be an object`);
      else lastResult = text(response['response']['output'] ?? response['response']['error']);
    });
    open = calls.map((call) => ({
      name: String(call['name']),
      ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
    }));
  }
  return lastResult;
}

interface InteractionState {
  loaded: Set<string>;
  pending: Map<string, 'function' | 'search'>;
  lastResult: string;
}

interface InteractionTools {
  functions: Map<string, Record<string, unknown>>;
  deferred: Set<string>;
  search: 'client' | 'server' | undefined;
  problems: string[];
}

function readInteractionTools(raw: unknown): InteractionTools {
  const tools: InteractionTools = {
    functions: new Map(),
    deferred: new Set(),
    search: undefined,
    problems: [],
  };
  for (const tool of Array.isArray(raw) ? raw : []) {
    if (!isRecord(tool)) continue;
    if (tool['type'] === 'tool_search') {
      if (tools.search !== undefined) tools.problems.push('tools: one tool_search at most');
      tools.search = tool['execution'] === 'client' ? 'client' : 'server';
      continue;
    }
    if (tool['type'] !== 'function') continue;
    const name = tool['name'];
    if (typeof name !== 'string' || !GEMINI_NAME.test(name)) {
      tools.problems.push(`tools: function name '${String(name)}' breaks Gemini's rule`);
      continue;
    }
    if (tools.functions.has(name)) tools.problems.push(`tools: '${name}' is declared twice`);
    const parameters = tool['parameters'];
    if (parameters !== undefined && !(isRecord(parameters) && parameters['type'] === 'object')) {
      tools.problems.push(`tools.${name}: parameters must be an object schema`);
    }
    tools.functions.set(name, tool);
    if (tool['defer_loading'] === true) tools.deferred.add(name);
  }
  if (tools.deferred.size > 0 && tools.search === undefined) {
    tools.problems.push('tools: defer_loading needs a tool_search tool in the same request');
  }
  return tools;
}

/**
 * Starts a local stand-in of the Gemini API for the real `@google/genai` client
 * (`new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: standIn.url } })`):
 * - `models/*:generateContent` checks every function declaration (Gemini's name rule,
 *   unique names, parameters in the schema subset) and that every model turn's function
 *   calls are answered by the next user turn's function responses, one each, by name and
 *   id, and that each call comes back with its `thoughtSignature`; a `call` step is a
 *   `functionCall` part, `calls` several at once, `reply` text.
 * - `interactions` (the Interactions API, with `previous_interaction_id`) keeps each
 *   interaction's state: deferred functions (`defer_loading: true`, which needs a
 *   `tool_search` tool) are loaded only by a search; in client mode a `search` step is a
 *   `tool_search_call` the next input must answer with a `tool_search_result` naming
 *   deferred functions; in server mode the stand-in searches itself. Every pending call
 *   must be answered, and a call of a function not loaded is refused.
 * A broken rule is answered with HTTP 400 in Gemini's error shape and recorded.
 *
 * @param options - the steps
 * @returns the running {@link StandIn}
 * @throws nothing
 */
export function startGeminiStandIn(options: GeminiStandInOptions): Promise<StandIn> {
  let step = 0;
  let ids = 0;
  const interactions = new Map<string, InteractionState>();
  const signatures = new Map<string, string>();
  const next = () => options.steps[step++] ?? { reply: 'done' };

  const generate = (body: Record<string, unknown>): StandInAnswer => {
    const { names, problems } = readDeclarations(body['tools']);
    const lastResult = readContents(body['contents'], problems, signatures);
    if (problems.length > 0) return { ok: false, violations: problems };
    const current = next();
    if ('search' in current)
      return { ok: false, violations: ['generateContent has no tool search'] };
    const wanted = 'reply' in current ? [] : 'calls' in current ? current.calls : [current];
    const missing = wanted.filter((call) => !names.has(call.call));
    if (missing.length > 0) {
      return {
        ok: false,
        violations: missing.map((call) => `the model called '${call.call}', which is not declared`),
      };
    }
    const parts =
      'reply' in current
        ? [{ text: `${current.reply} ${lastResult}`.trim() }]
        : wanted.map((call) => {
            const id = `call_${++ids}`;
            signatures.set(id, `signature_${id}`);
            return {
              functionCall: { id, name: call.call, args: call.input },
              thoughtSignature: `signature_${id}`,
            };
          });
    return {
      ok: true,
      body: {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      },
    };
  };

  const interact = (body: Record<string, unknown>): StandInAnswer => {
    const tools = readInteractionTools(body['tools']);
    const problems = [...tools.problems];
    const previousId = body['previous_interaction_id'];
    const previous = typeof previousId === 'string' ? interactions.get(previousId) : undefined;
    if (previousId !== undefined && previous === undefined)
      problems.push(`previous_interaction_id '${String(previousId)}' is unknown`);
    const state: InteractionState = {
      loaded: new Set([...tools.functions.keys()].filter((name) => !tools.deferred.has(name))),
      pending: new Map(previous?.pending ?? []),
      lastResult: previous?.lastResult ?? '',
    };
    for (const name of previous?.loaded ?? [])
      if (tools.functions.has(name)) state.loaded.add(name);
    const input = Array.isArray(body['input']) ? body['input'] : [];
    for (const item of input) {
      if (
        !isRecord(item) ||
        (item['type'] !== 'function_result' && item['type'] !== 'tool_search_result')
      )
        continue;
      const kind = item['type'] === 'function_result' ? 'function' : 'search';
      const callId = String(item['call_id']);
      if (state.pending.get(callId) !== kind) {
        problems.push(`input: ${String(item['type'])} for unknown call '${callId}'`);
        continue;
      }
      state.pending.delete(callId);
      if (kind === 'function') state.lastResult = text(item['result']);
      for (const found of Array.isArray(item['tools']) ? item['tools'] : []) {
        const name = isRecord(found) ? String(found['name']) : String(found);
        if (!tools.deferred.has(name))
          problems.push(
            `input: tool_search_result names '${name}', which is not a deferred function`,
          );
        else state.loaded.add(name);
      }
    }
    if (state.pending.size > 0)
      problems.push(`input: ${state.pending.size} pending calls are not answered`);
    if (problems.length > 0) return { ok: false, violations: problems };

    const steps: unknown[] = [];
    const call = (wanted: { call: string; input: Record<string, unknown> }): string | undefined => {
      if (!state.loaded.has(wanted.call))
        return `the model called '${wanted.call}', which is not loaded`;
      const id = `fc_${++ids}`;
      state.pending.set(id, 'function');
      steps.push({ type: 'function_call', id, name: wanted.call, arguments: wanted.input });
      return undefined;
    };
    const current = next();
    let problem: string | undefined;
    if ('reply' in current) {
      steps.push({
        type: 'model_output',
        content: [{ type: 'text', text: `${current.reply} ${state.lastResult}`.trim() }],
      });
    } else if ('search' in current) {
      const query = {
        query: current.search,
        ...(current.limit === undefined ? {} : { limit: current.limit }),
      };
      const id = `ts_${++ids}`;
      if (tools.search === undefined)
        problem = 'the model wants to search, but the request has no tool_search';
      else if (tools.search === 'client') {
        state.pending.set(id, 'search');
        steps.push({ type: 'tool_search_call', id, arguments: query, execution: 'client' });
      } else {
        const deferred = [...tools.deferred].map(
          (name) => tools.functions.get(name) as { name: string; description?: string },
        );
        const found = naiveSearch(deferred, current.search, current.limit);
        for (const tool of found) state.loaded.add(tool.name);
        steps.push(
          { type: 'tool_search_call', id, arguments: query, execution: 'server' },
          {
            type: 'tool_search_result',
            call_id: id,
            tools: found.map((tool) => ({ name: tool.name })),
          },
        );
        const following = options.steps[step];
        if (following !== undefined && 'call' in following) {
          step += 1;
          problem = call(following);
        }
      }
    } else {
      for (const wanted of 'calls' in current ? current.calls : [current]) problem ??= call(wanted);
    }
    if (problem !== undefined) return { ok: false, violations: [problem] };
    const id = `int_${++ids}`;
    interactions.set(id, state);
    const now = '2026-12-04T00:00:00Z';
    const status = state.pending.size > 0 ? 'requires_action' : 'completed';
    return {
      ok: true,
      body: { id, status, created: now, updated: now, model: body['model'], steps },
    };
  };

  return startStandIn(
    /^\/(v1|v1beta|v1alpha)\/(models\/[^/]+:generateContent|interactions)$/,
    (body, path) => {
      if (!isRecord(body)) return { ok: false, violations: ['body must be an object'] };
      return path.endsWith(':generateContent') ? generate(body) : interact(body);
    },
    (message) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }),
  );
}
