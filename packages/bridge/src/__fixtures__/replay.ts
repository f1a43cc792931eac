import type { ToolCall, ToolDefinition, ToolSearchConfigInput } from '@tool-search/core';
import { assembleTools } from '../assemble.js';
import type { BridgeDispatchContext } from '../bridge-results.js';
import { handleBridgeCall } from '../handle.js';
import type { IncomingToolCall } from '../resolve.js';
import type { SearchGuard } from '../search-guard.js';
import type { BridgeTelemetry } from '../telemetry.js';

/** A scripted model: the next call, given the answer to its last one; `undefined` ends the run. */
export type ScriptedModel = (last: unknown, turn: number) => IncomingToolCall | undefined;

/** One turn of a replay: the model's call and the answer it got. */
export interface ReplayTurn {
  call: IncomingToolCall;
  answer: unknown;
}

/** What a replay saw. */
export interface ReplayRecord {
  turns: ReplayTurn[];
  /** The real calls that reached the runtime's dispatch, in order. */
  dispatched: ToolCall[];
  telemetry: BridgeTelemetry;
}

/** Options of {@link replay}. */
export interface ReplayOptions {
  tools: readonly ToolDefinition[];
  config?: ToolSearchConfigInput;
  searchGuard?: SearchGuard;
  /** A run that has not ended by then is cut here. @defaultValue 200 */
  maxTurns?: number;
}

/**
 * Plays a scripted model against the real bridge, one model call a turn, assembling
 * the session anew each turn from the previous assembly (as a runtime does). The
 * runtime's execution answers each real call with its name and arguments.
 */
export async function replay(model: ScriptedModel, options: ReplayOptions): Promise<ReplayRecord> {
  const dispatched: ToolCall[] = [];
  const execute = (call: ToolCall, _context?: BridgeDispatchContext) => {
    dispatched.push(call);
    return { ok: true, ran: call.name, arguments: call.arguments };
  };
  let assembly = assembleTools({
    tools: options.tools,
    config: options.config,
    ...(options.searchGuard === undefined ? {} : { searchGuard: options.searchGuard }),
  });
  const turns: ReplayTurn[] = [];
  let last: unknown;
  for (let turn = 0; turn < (options.maxTurns ?? 200); turn += 1) {
    const call = model(last, turn);
    if (call === undefined) break;
    const bridged = handleBridgeCall(assembly, call, execute);
    const answer =
      bridged === undefined
        ? execute({ name: call.name, arguments: (call.arguments ?? {}) as Record<string, unknown> })
        : await bridged;
    turns.push({ call, answer });
    last = answer;
    assembly = assembleTools({ tools: options.tools, config: options.config, previous: assembly });
  }
  return { turns, dispatched, telemetry: assembly.telemetry };
}

const search = (query: string): IncomingToolCall => ({ name: 'tool_search', arguments: { query } });

/**
 * The looping trace: searches forever, whatever it is told, rewording now and then
 * (the reported traces repeat a few phrasings of one need).
 */
export function keepsSearching(queries: readonly string[]): ScriptedModel {
  return (_last, turn) => search(queries[turn % queries.length]!);
}

/** Retries a tool already in its list through `tool_call` until an answer is not an error. */
export function retriesVisibleTool(name: string, args: Record<string, unknown>): ScriptedModel {
  return (last, turn) => {
    if (turn > 0 && !(typeof last === 'object' && last !== null && 'error' in last)) {
      return undefined;
    }
    return { name: 'tool_call', arguments: { name, arguments: args } };
  };
}

/**
 * An honest multi-step task: find and open an issue, then tell the team on Slack,
 * reading the list of channels with a visible tool first.
 */
export function honestTask(): ScriptedModel {
  const steps: IncomingToolCall[] = [
    search('create a github issue'),
    {
      name: 'tool_call',
      arguments: {
        name: 'github_create_issue',
        arguments: { owner: 'acme', repo: 'web', title: 'Login fails' },
      },
    },
    search('post a message to a slack channel'),
    { name: 'tool_describe', arguments: { name: 'slack_post_message' } },
    { name: 'bash', arguments: { command: 'cat channels.txt' } },
    {
      name: 'tool_call',
      arguments: {
        name: 'slack_post_message',
        arguments: { channel_id: 'C1', text: 'Filed: Login fails' },
      },
    },
    search('list slack channels'),
    { name: 'slack_list_channels', arguments: {} },
  ];
  return (_last, turn) => steps[turn];
}
