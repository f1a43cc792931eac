import { isRecord } from '@tool-search/core/internal';
import {
  applyToolChange,
  betasOf,
  createThinkingLedger,
  removedParameterProblems,
} from './anthropic-conversation.js';
import {
  CODE_EXECUTION_TYPES,
  callerProblems,
  createAnthropicProgramPlayer,
} from './anthropic-programs.js';
import {
  naiveSearch,
  type ScriptedStep,
  type StandIn,
  type StandInAnswer,
  type StandInOptions,
  startStandIn,
} from './stand-in-server.js';

const NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const SERVER_SEARCH: Record<string, string> = {
  tool_search_tool_bm25_20251119: 'tool_search_tool_bm25',
  tool_search_tool_regex_20251119: 'tool_search_tool_regex',
};

/** Options of {@link startAnthropicStandIn}. */
export interface AnthropicStandInOptions extends StandInOptions {
  /** The name of the client search tool the model calls on a `search` step. @defaultValue 'tool_search' */
  searchToolName?: string;
}

interface Tools {
  custom: Map<string, Record<string, unknown>>;
  deferred: Set<string>;
  serverSearch: string | undefined;
  codeExecution: string | undefined;
  problems: string[];
}

function readTools(raw: unknown): Tools {
  const tools: Tools = {
    custom: new Map(),
    deferred: new Set(),
    serverSearch: undefined,
    codeExecution: undefined,
    problems: [],
  };
  if (raw === undefined) return tools;
  if (!Array.isArray(raw)) {
    tools.problems.push('tools: must be an array');
    return tools;
  }
  const seen = new Set<string>();
  let loaded = 0;
  for (const tool of raw as unknown[]) {
    if (!isRecord(tool) || typeof tool['name'] !== 'string') {
      tools.problems.push('tools: every tool needs a name');
      continue;
    }
    const name = tool['name'];
    if (seen.has(name)) tools.problems.push(`tools: names must be unique, '${name}' is repeated`);
    seen.add(name);
    const type = tool['type'];
    if (typeof type === 'string' && CODE_EXECUTION_TYPES.has(type)) {
      if (name !== 'code_execution')
        tools.problems.push(`tools: ${type} must be named code_execution`);
      tools.codeExecution = type;
    } else if (typeof type === 'string' && type !== 'custom') {
      if (SERVER_SEARCH[type] === undefined)
        tools.problems.push(`tools: unknown tool type '${type}'`);
      else if (SERVER_SEARCH[type] !== name)
        tools.problems.push(`tools: ${type} must be named ${SERVER_SEARCH[type]}`);
      tools.serverSearch = name;
    } else {
      if (!NAME.test(name))
        tools.problems.push(`tools: name '${name}' breaks ^[a-zA-Z0-9_-]{1,128}$`);
      const schema = tool['input_schema'];
      if (!isRecord(schema) || schema['type'] !== 'object') {
        tools.problems.push(`tools.${name}: input_schema.type must be 'object'`);
      }
      tools.custom.set(name, tool);
    }
    if (tool['defer_loading'] === true && tool['cache_control'] != null) {
      tools.problems.push(`tools.${name}: a deferred tool cannot carry cache_control`);
    }
    if (tool['defer_loading'] === true) tools.deferred.add(name);
    else loaded += 1;
  }
  if (raw.length > 0 && loaded === 0)
    tools.problems.push('tools: at least one tool must not be deferred');
  tools.problems.push(...callerProblems(tools.custom, tools.codeExecution));
  return tools;
}

function references(block: Record<string, unknown>): string[] {
  const inner =
    block['type'] === 'tool_result'
      ? block['content']
      : block['type'] === 'tool_search_tool_result' && isRecord(block['content'])
        ? block['content']['tool_references']
        : undefined;
  if (!Array.isArray(inner)) return [];
  return inner
    .filter(
      (item): item is Record<string, unknown> =>
        isRecord(item) && item['type'] === 'tool_reference',
    )
    .map((item) => String(item['tool_name']));
}

function resultText(block: Record<string, unknown>): string {
  const content = block['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((item): item is Record<string, unknown> => isRecord(item) && item['type'] === 'text')
    .map((item) => String(item['text']))
    .join('\n');
}

// Replays the conversation as the platform reads it: which tools are loaded at each point.
function readMessages(raw: unknown, tools: Tools, problems: string[], betas: ReadonlySet<string>) {
  const loaded = new Set([...tools.custom.keys()].filter((name) => !tools.deferred.has(name)));
  const state = { loaded, custom: tools.custom, defined: new Set(tools.custom.keys()) };
  let lastResult = '';
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push('messages: must be a non-empty array');
    return { loaded, lastResult };
  }
  let openCalls = new Set<string>();
  for (const [index, message] of (raw as unknown[]).entries()) {
    if (!isRecord(message)) continue;
    const blocks = Array.isArray(message['content']) ? (message['content'] as unknown[]) : [];
    const calls = new Set<string>();
    for (const block of blocks) {
      if (!isRecord(block)) continue;
      problems.push(...applyToolChange(block, `messages[${index}]`, state, betas));
      for (const name of references(block)) {
        if (!tools.deferred.has(name)) {
          problems.push(
            `messages[${index}]: tool_reference '${name}' is not a deferred tool of this request`,
          );
        }
        loaded.add(name);
      }
      if (block['type'] === 'tool_use') {
        const name = String(block['name']);
        if (!loaded.has(name))
          problems.push(`messages[${index}]: tool_use of '${name}', which is not loaded`);
        calls.add(String(block['id']));
      }
      if (block['type'] === 'tool_result') {
        if (!openCalls.has(String(block['tool_use_id']))) {
          problems.push(
            `messages[${index}]: tool_result for unknown tool_use_id '${String(block['tool_use_id'])}'`,
          );
        }
        lastResult = resultText(block);
      }
    }
    openCalls = calls;
  }
  return { loaded, lastResult };
}

function message(content: unknown[], stop: string, container?: string) {
  return {
    id: `msg_${Math.random().toString(36).slice(2, 10)}`,
    type: 'message',
    role: 'assistant',
    model: 'stand-in',
    container:
      container === undefined
        ? null
        : { id: container, expires_at: '2026-12-31T00:00:00Z', skills: null },
    diagnostics: null,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

/**
 * Starts a local stand-in of the Anthropic Messages API (`POST /v1/messages`) for the
 * real `@anthropic-ai/sdk` client (`new Anthropic({ baseURL: standIn.url, apiKey: 'test' })`).
 * It checks every request as the API does (tool names and schemas, unique names, at
 * least one tool not deferred, no `cache_control` on a deferred tool, every `tool_reference` naming a deferred tool of the same
 * request, every `tool_use` naming a loaded tool, every `tool_result` answering a call)
 * and answers 400 when a rule is broken; it also refuses what API version 2026-10-21
 * removed (`temperature`, `top_p`, `top_k`), applies `tool_addition` / `tool_removal`
 * blocks (with their betas; `tool_name_conflict` and `tool_reference_unresolved` in
 * `error.details.error_code`), and, with thinking on, answers with a thinking block first
 * and refuses a later request whose `tools`, `system` or earlier messages changed after a
 * thinking block it carries (preserved thinking). Otherwise a scripted model plays the next step:
 * a `search` calls our client search tool, or, when the request carries Anthropic's
 * server search tool, searches the deferred tools itself and answers with
 * `server_tool_use` and `tool_search_tool_result` blocks (and the following `call` step
 * in the same message); a `call` is a `tool_use`; a `reply` ends the turn; a `program`
 * runs in the code execution tool (`allowed_callers` and the code execution tool checked):
 * a `server_tool_use` of `code_execution`, one `tool_use` per call with a `caller` naming
 * it, and a `container`; the next request must pass the container back and answer every
 * call with `tool_result` blocks only, and gets a `code_execution_tool_result`.
 *
 * @param options - the steps, and the name of the client search tool
 * @returns the running {@link StandIn}
 * @throws nothing (a request it cannot read is answered with 400 and recorded)
 */
export function startAnthropicStandIn(options: AnthropicStandInOptions): Promise<StandIn> {
  const searchToolName = options.searchToolName ?? 'tool_search';
  let step = 0;
  let ids = 0;
  const programs = createAnthropicProgramPlayer();
  const thinking = createThinkingLedger();
  const handle = (
    body: unknown,
    _path: string,
    headers: Record<string, string | string[] | undefined>,
  ): StandInAnswer => {
    if (!isRecord(body)) return { ok: false, violations: ['body must be an object'] };
    const tools = readTools(body['tools']);
    const problems = [
      ...tools.problems,
      ...removedParameterProblems(body),
      ...programs.check(body),
      ...thinking.problems(body),
    ];
    const read = readMessages(body['messages'], tools, problems, betasOf(headers));
    const { loaded } = read;
    if (problems.length > 0) return { ok: false, violations: problems };
    const settled = programs.settle(body);
    const lastResult = settled?.stdout ?? read.lastResult;
    const content: unknown[] = thinking.wants(body) ? [thinking.block(body)] : [];
    if (settled !== undefined) content.push(settled.block);
    const callBlock = (next: Extract<ScriptedStep, { call: string }>): string | undefined => {
      if (!loaded.has(next.call)) return `the model called '${next.call}', which is not loaded`;
      content.push({
        type: 'tool_use',
        id: `toolu_${++ids}`,
        name: next.call,
        input: next.input,
        caller: { type: 'direct' },
      });
      return undefined;
    };
    const current = options.steps[step++] ?? { reply: 'done' };
    if ('program' in current) {
      return programs.start(current, {
        loaded,
        custom: tools.custom,
        codeExecution: tools.codeExecution,
        nextId: () => ++ids,
        message: (blocks, stop, container) => message([...content, ...blocks], stop, container),
      });
    }
    if ('reply' in current) {
      content.push({ type: 'text', text: `${current.reply} ${lastResult}`.trim() });
      return { ok: true, body: message(content, 'end_turn') };
    }
    if ('call' in current) {
      const problem = callBlock(current);
      return problem
        ? { ok: false, violations: [problem] }
        : { ok: true, body: message(content, 'tool_use') };
    }
    if (tools.serverSearch !== undefined) {
      const deferred = [...tools.custom.values()].filter((tool) =>
        tools.deferred.has(String(tool['name'])),
      );
      const found = naiveSearch(
        deferred as { name: string; description?: string }[],
        current.search,
        current.limit,
      );
      const id = `srvtoolu_${++ids}`;
      content.push(
        {
          type: 'server_tool_use',
          id,
          name: tools.serverSearch,
          input: { query: current.search },
          caller: { type: 'direct' },
        },
        {
          type: 'tool_search_tool_result',
          tool_use_id: id,
          content: {
            type: 'tool_search_tool_search_result',
            tool_references: found.map((tool) => ({
              type: 'tool_reference',
              tool_name: tool.name,
            })),
          },
        },
      );
      for (const tool of found) loaded.add(tool.name);
      const next = options.steps[step];
      if (next !== undefined && 'call' in next) {
        step += 1;
        const problem = callBlock(next);
        if (problem) return { ok: false, violations: [problem] };
        return { ok: true, body: message(content, 'tool_use') };
      }
      return { ok: true, body: message(content, 'end_turn') };
    }
    if (!loaded.has(searchToolName)) {
      return {
        ok: false,
        violations: [`the model wants to search, but '${searchToolName}' is not a loaded tool`],
      };
    }
    const input: Record<string, unknown> = { query: current.search };
    if (current.limit !== undefined) input['limit'] = current.limit;
    content.push({
      type: 'tool_use',
      id: `toolu_${++ids}`,
      name: searchToolName,
      input,
      caller: { type: 'direct' },
    });
    return { ok: true, body: message(content, 'tool_use') };
  };
  return startStandIn(['/v1/messages'], handle, (text) => {
    const code = /^(tool_name_conflict|tool_reference_unresolved): /.exec(text)?.[1];
    return {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: text,
        ...(code === undefined ? {} : { details: { error_code: code } }),
      },
    };
  });
}
