import { isRecord } from '@tool-search/core/internal';
import { createOpenAIProgramPlayer, functionCallerProblems } from './openai-programs.js';
import {
  naiveSearch,
  type ScriptedStep,
  type StandIn,
  type StandInAnswer,
  type StandInOptions,
  startStandIn,
  strictProblems,
} from './stand-in-server.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Fn = Record<string, unknown> & { name: string; namespace?: string };

interface Tools {
  functions: Map<string, Fn>;
  search: 'client' | 'server' | undefined;
  programmatic: boolean;
  problems: string[];
}

function checkFunction(
  tool: Record<string, unknown>,
  where: string,
  problems: string[],
): Fn | undefined {
  const name = tool['name'];
  if (typeof name !== 'string' || !NAME.test(name)) {
    problems.push(`${where}: function name '${String(name)}' breaks ^[a-zA-Z0-9_-]{1,64}$`);
    return undefined;
  }
  const parameters = tool['parameters'];
  if (
    parameters !== undefined &&
    parameters !== null &&
    (!isRecord(parameters) || parameters['type'] !== 'object')
  ) {
    problems.push(`${where}.${name}: parameters.type must be 'object'`);
  }
  if (tool['strict'] === true)
    problems.push(...strictProblems(parameters, `${where}.${name}.parameters`));
  problems.push(...functionCallerProblems(tool, where));
  return tool as Fn;
}

function readTools(raw: unknown): Tools {
  const tools: Tools = {
    functions: new Map(),
    search: undefined,
    programmatic: false,
    problems: [],
  };
  if (raw === undefined) return tools;
  if (!Array.isArray(raw)) {
    tools.problems.push('tools: must be an array');
    return tools;
  }
  const topNames = new Set<string>();
  let deferred = 0;
  const add = (fn: Fn | undefined) => {
    if (fn === undefined) return;
    if (tools.functions.has(fn.name))
      tools.problems.push(`tools: function '${fn.name}' is defined twice`);
    tools.functions.set(fn.name, fn);
    if (fn['defer_loading'] === true) deferred += 1;
  };
  for (const tool of raw as unknown[]) {
    if (!isRecord(tool)) continue;
    if (tool['type'] === 'programmatic_tool_calling') {
      if (tools.programmatic) tools.problems.push('tools: more than one programmatic_tool_calling');
      tools.programmatic = true;
      continue;
    }
    if (tool['type'] === 'tool_search') {
      if (tools.search !== undefined) tools.problems.push('tools: more than one tool_search');
      tools.search = tool['execution'] === 'client' ? 'client' : 'server';
      if (tools.search === 'client' && !isRecord(tool['parameters'])) {
        tools.problems.push('tools: a client tool_search needs parameters');
      }
      continue;
    }
    const name = String(tool['name']);
    if (topNames.has(name)) tools.problems.push(`tools: name '${name}' is used twice`);
    topNames.add(name);
    if (tool['type'] === 'function') add(checkFunction(tool, 'tools', tools.problems));
    else if (tool['type'] === 'namespace') {
      if (!NAME.test(name))
        tools.problems.push(`tools: namespace name '${name}' breaks the name rule`);
      if (typeof tool['description'] !== 'string' || tool['description'] === '') {
        tools.problems.push(`tools: namespace '${name}' needs a description`);
      }
      for (const inner of Array.isArray(tool['tools']) ? (tool['tools'] as unknown[]) : []) {
        if (!isRecord(inner)) continue;
        const fn = checkFunction(inner, `tools.${name}`, tools.problems);
        if (fn) add({ ...fn, namespace: name });
      }
    } else tools.problems.push(`tools: unexpected tool type '${String(tool['type'])}'`);
  }
  if (deferred > 0 && tools.search === undefined) {
    tools.problems.push('tools: deferred functions need a tool_search tool');
  }
  return tools;
}

function loadedFunctions(raw: unknown, problems: string[], where: string): Fn[] {
  const out: Fn[] = [];
  for (const tool of Array.isArray(raw) ? (raw as unknown[]) : []) {
    if (!isRecord(tool)) continue;
    if (tool['type'] === 'function') {
      const fn = checkFunction(tool, where, problems);
      if (fn) out.push(fn);
    } else if (tool['type'] === 'namespace') {
      for (const inner of Array.isArray(tool['tools']) ? (tool['tools'] as unknown[]) : []) {
        if (!isRecord(inner)) continue;
        const fn = checkFunction(inner, where, problems);
        if (fn) out.push({ ...fn, namespace: String(tool['name']) });
      }
    } else problems.push(`${where}: a tool_search_output may only load functions here`);
  }
  return out;
}

// Replays the input as the platform reads it: which functions are loaded at each point.
function readInput(raw: unknown, tools: Tools, problems: string[]) {
  const loaded = new Set(
    [...tools.functions.values()].filter((fn) => fn['defer_loading'] !== true).map((fn) => fn.name),
  );
  let lastResult = '';
  // Functions a search loaded, with their definitions (a program's calls read allowed_callers).
  const found = new Map<string, Fn>();
  if (typeof raw === 'string') return { loaded, lastResult, found };
  if (!Array.isArray(raw)) {
    problems.push('input: must be a string or an array');
    return { loaded, lastResult, found };
  }
  const searchCalls = new Set<string>();
  const functionCalls = new Set<string>();
  for (const [index, item] of (raw as unknown[]).entries()) {
    if (!isRecord(item)) continue;
    const where = `input[${index}]`;
    switch (item['type']) {
      case 'tool_search_call':
        if (item['execution'] === 'client') {
          if (tools.search !== 'client')
            problems.push(`${where}: a client tool_search_call without a client tool_search`);
          searchCalls.add(String(item['call_id']));
        }
        break;
      case 'tool_search_output': {
        if (item['execution'] === 'client' && !searchCalls.has(String(item['call_id']))) {
          problems.push(
            `${where}: tool_search_output for unknown call_id '${String(item['call_id'])}'`,
          );
        }
        for (const fn of loadedFunctions(item['tools'], problems, where)) {
          loaded.add(fn.name);
          found.set(fn.name, fn);
        }
        break;
      }
      case 'function_call': {
        const name = String(item['name']);
        if (!loaded.has(name))
          problems.push(`${where}: function_call of '${name}', which is not loaded`);
        functionCalls.add(String(item['call_id']));
        break;
      }
      case 'function_call_output':
        if (!functionCalls.has(String(item['call_id']))) {
          problems.push(
            `${where}: function_call_output for unknown call_id '${String(item['call_id'])}'`,
          );
        }
        lastResult =
          typeof item['output'] === 'string' ? item['output'] : JSON.stringify(item['output']);
        break;
      default:
        break;
    }
  }
  return { loaded, lastResult, found };
}

function response(output: unknown[]) {
  return {
    id: `resp_${Math.random().toString(36).slice(2, 10)}`,
    object: 'response',
    created_at: 0,
    status: 'completed',
    model: 'stand-in',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    output,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}

/**
 * Starts a local stand-in of the OpenAI Responses API (`POST /v1/responses`) for the
 * real `openai` client (`new OpenAI({ baseURL: `${standIn.url}/v1`, apiKey: 'test' })`).
 * It checks every request as the API does (function and namespace names, parameters of
 * type `object`, strict-mode schemas where `strict: true`, unique names, a `tool_search`
 * for deferred functions, every `tool_search_output` answering a client call, every
 * `function_call` naming a loaded function, every `function_call_output` answering a
 * call) and answers 400 when a rule is broken. Otherwise a scripted model plays the next
 * step: a `search` is a client `tool_search_call`, or, with a hosted `tool_search`, the
 * stand-in searches the deferred functions itself and answers with server
 * `tool_search_call` and `tool_search_output` items (and the following `call` step in
 * the same response); a `call` is a `function_call`; a `reply` is a message; a `program` (with
 * `programmatic_tool_calling` and `allowed_callers` checked) is a `program` item with a
 * fingerprint and one `function_call` per call whose `caller` is the program; the next
 * request must carry the program item back unchanged and answer every call with an output
 * that carries the caller, and gets a `program_output`.
 *
 * @param options - the steps
 * @returns the running {@link StandIn}
 * @throws nothing (a request it cannot read is answered with 400 and recorded)
 */
export function startOpenAIStandIn(options: StandInOptions): Promise<StandIn> {
  let step = 0;
  let ids = 0;
  const programs = createOpenAIProgramPlayer();
  const handle = (body: unknown): StandInAnswer => {
    if (!isRecord(body)) return { ok: false, violations: ['body must be an object'] };
    const tools = readTools(body['tools']);
    const problems = [...tools.problems, ...programs.check(body['input'])];
    const read = readInput(body['input'], tools, problems);
    const { loaded } = read;
    if (problems.length > 0) return { ok: false, violations: problems };
    const settled = programs.settle(body['input']);
    const lastResult = settled?.result ?? read.lastResult;
    const output: unknown[] = settled === undefined ? [] : [settled.item];
    const callItem = (
      next: Extract<ScriptedStep, { call: string }>,
      found: readonly Fn[] = [],
    ): string | undefined => {
      if (!loaded.has(next.call)) return `the model called '${next.call}', which is not loaded`;
      const fn =
        found.find((candidate) => candidate.name === next.call) ?? tools.functions.get(next.call);
      const item: Record<string, unknown> = {
        type: 'function_call',
        id: `fc_${++ids}`,
        call_id: `call_${ids}`,
        name: next.call,
        arguments: JSON.stringify(next.input),
        status: 'completed',
      };
      if (fn?.namespace !== undefined) item['namespace'] = fn.namespace;
      output.push(item);
      return undefined;
    };
    const current = options.steps[step++] ?? { reply: 'done' };
    if ('program' in current) {
      const started = programs.start(current, {
        loaded,
        functions: new Map([...tools.functions, ...read.found]),
        programmatic: tools.programmatic,
        nextId: () => ++ids,
      });
      return 'output' in started
        ? { ok: true, body: response([...output, ...started.output]) }
        : started;
    }
    if ('reply' in current) {
      output.push({
        type: 'message',
        id: `msg_${++ids}`,
        role: 'assistant',
        status: 'completed',
        content: [
          { type: 'output_text', text: `${current.reply} ${lastResult}`.trim(), annotations: [] },
        ],
      });
      return { ok: true, body: response(output) };
    }
    if ('call' in current) {
      const problem = callItem(current);
      return problem ? { ok: false, violations: [problem] } : { ok: true, body: response(output) };
    }
    const args: Record<string, unknown> = { query: current.search };
    if (current.limit !== undefined) args['limit'] = current.limit;
    if (tools.search === 'client') {
      output.push({
        type: 'tool_search_call',
        id: `tsc_${++ids}`,
        call_id: `call_${ids}`,
        execution: 'client',
        status: 'completed',
        arguments: args,
      });
      return { ok: true, body: response(output) };
    }
    if (tools.search !== 'server') {
      return {
        ok: false,
        violations: ['the model wants to search, but the request has no tool_search'],
      };
    }
    const deferred = [...tools.functions.values()].filter((fn) => fn['defer_loading'] === true);
    const found = naiveSearch(
      deferred as (Fn & { description?: string })[],
      current.search,
      current.limit,
    );
    const byNamespace = new Map<string, Fn[]>();
    const loose: Fn[] = [];
    for (const fn of found) {
      loaded.add(fn.name);
      if (fn.namespace === undefined) loose.push(fn);
      else byNamespace.set(fn.namespace, [...(byNamespace.get(fn.namespace) ?? []), fn]);
    }
    const strip = ({ namespace: _namespace, ...fn }: Fn) => fn;
    output.push(
      {
        type: 'tool_search_call',
        id: `tsc_${++ids}`,
        call_id: null,
        execution: 'server',
        status: 'completed',
        arguments: args,
      },
      {
        type: 'tool_search_output',
        id: `tso_${ids}`,
        call_id: null,
        execution: 'server',
        status: 'completed',
        tools: [
          ...[...byNamespace].map(([name, fns]) => ({
            type: 'namespace',
            name,
            description: `Loaded from ${name}`,
            tools: fns.map(strip),
          })),
          ...loose.map(strip),
        ],
      },
    );
    const next = options.steps[step];
    if (next !== undefined && 'call' in next) {
      step += 1;
      const problem = callItem(next, found);
      if (problem) return { ok: false, violations: [problem] };
    }
    return { ok: true, body: response(output) };
  };
  return startStandIn(['/v1/responses', '/responses'], handle, (text) => ({
    error: { type: 'invalid_request_error', message: text, param: null, code: null },
  }));
}
