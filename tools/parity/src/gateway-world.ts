// What the gateway's parity properties share: the upstream's tools and the worlds of
// policies over them, the routes a model call takes, and reading what ran from a result.
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CALL } from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import type { DispatchResult } from '@tool-search/hooks';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import fc from 'fast-check';
import {
  deniedBy,
  type Outcome,
  type ParityCall,
  type ParityTool,
  type ParityWorld,
  policyOf,
  type Recorder,
  type ToolPolicy,
} from './model.js';
import { oneCallProgram } from './program-surface.js';

export const TOKEN = 'parity-token-0123456789abcdef';
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise with its resolve. */
export function barrier(): Promise<void> & { resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return Object.assign(promise, { resolve });
}

/** The upstream's tools: every kind of property, required and optional. */
export const TOOLS: ParityTool[] = [
  {
    properties: ['amount', 'force', 'note'],
    required: ['amount'],
  },
  { properties: ['amount', 'count', 'mode'], required: ['count', 'mode'] },
  { properties: ['force', 'note'], required: [] },
  { properties: ['amount', 'count', 'force', 'mode', 'note'], required: ['amount', 'force'] },
].map(({ properties, required }, index) => {
  const types: Record<string, Record<string, unknown>> = {
    amount: { type: 'number' },
    count: { type: 'integer' },
    force: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    note: { type: 'string' },
  };
  return {
    definition: {
      name: `ledger_action_${index}`,
      description: `Ledger action number ${index}: moves an amount between accounts.`,
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(properties.map((name) => [name, types[name]!])),
        ...(required.length > 0 ? { required } : {}),
      },
      source: 'mcp',
      toolset: 'mcp-ledger',
    },
    properties,
    required,
  } as ParityTool;
});

const policyArbitrary: fc.Arbitrary<ToolPolicy> = fc.record({
  denied: fc.boolean(),
  approvalLimit: fc.integer({ min: -50, max: 200 }),
});
export const worldArbitrary: fc.Arbitrary<ParityWorld> = fc
  .array(policyArbitrary, { minLength: TOOLS.length, maxLength: TOOLS.length })
  .map((policies) => ({ tools: TOOLS, policies }));

export type Route = 'tool_call' | 'batch' | 'direct-name' | 'program' | 'console';

/** An operator signed in to the gateway's console, trying tools there (route `console`). */
export async function consoleOperator(url: string) {
  const login = await fetch(new URL('/console/api/login', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: TOKEN }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf } = (await login.json()) as { csrf: string };
  return async (call: { name: string; arguments: Record<string, unknown> }) => {
    const response = await fetch(new URL('/console/api/tools/try', url), {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: call.name, arguments: call.arguments }),
    });
    return ((await response.json()) as { result: CallToolResult }).result;
  };
}

export function modelCall(route: Route, call: ParityCall) {
  const name = TOOLS[call.tool]!.definition.name;
  if (route === 'tool_call')
    return { name: TOOL_CALL, arguments: { name, arguments: call.written } };
  if (route === 'batch') {
    return { name: TOOL_CALL, arguments: { calls: [{ name, arguments: call.written }] } };
  }
  // The same call from inside a tool_program program served by the gateway.
  if (route === 'program') {
    return { name: TOOL_PROGRAM, arguments: { source: oneCallProgram(name, call.written) } };
  }
  return { name, arguments: call.written };
}

/** The text parts of a result; of a program's, the text of the call result it returned. */
export function resultText(result: CallToolResult): string {
  const program = result.structuredContent as { programId?: unknown; result?: unknown } | undefined;
  if (typeof program?.programId === 'string') {
    const returned = program.result as CallToolResult | string | undefined;
    return typeof returned === 'object' && returned !== null && Array.isArray(returned.content)
      ? resultText(returned)
      : '';
  }
  return result.content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('\n');
}

/** What the upstream received, from the echo in a result (single, batch or program). */
export function upstreamArguments(result: CallToolResult): Record<string, unknown> | undefined {
  const text = resultText(result);
  const found = text.match(/\{"ran":"[^"]+","arguments":(\{.*?\})\}/s);
  return found ? (JSON.parse(found[1]!) as Record<string, unknown>) : undefined;
}

/** The policy of the current run: the world the guardrail and the approval read. */
export interface Live {
  world: ParityWorld;
  recorder: Recorder;
  settled: DispatchResult[];
}

/** The outcome a gateway call met: what the upstream ran, who denied it, what was asked. */
export function liveOutcome(result: CallToolResult, live: Live): Outcome {
  const outcome: Outcome = { status: 'denied' };
  const ran = upstreamArguments(result);
  if (ran !== undefined) {
    outcome.status = 'ran';
    outcome.ran = ran;
  }
  const by = deniedBy(live.settled.at(-1));
  if (by !== undefined) outcome.by = by;
  if (live.recorder.asked.length > 0) outcome.asked = live.recorder.asked.at(-1)!.arguments;
  return outcome;
}

export function livePolicy(live: Live) {
  return {
    guardrail: {
      name: 'deny-list',
      check: (call: Parameters<ReturnType<typeof policyOf>['guardrail']['check']>[0], ctx: never) =>
        policyOf(live.world, live.recorder).guardrail.check(call, ctx),
    },
    approval: {
      name: 'parity',
      request: (request: Parameters<ReturnType<typeof policyOf>['approval']['request']>[0]) =>
        policyOf(live.world, live.recorder).approval.request(request),
    },
    hook: {
      name: 'settled',
      onSettled: ({ result }: { result: DispatchResult }) => void live.settled.push(result),
    },
  };
}

export function upstreamConfig(
  approval: Record<string, unknown>,
  options: { asks?: boolean | 'modern' } = {},
) {
  return parseGatewayConfig({
    mcpServers: {
      ledger: {
        command: process.execPath,
        // `asks: 'modern'`: a 2026-07-28-only server that asks by input_required.
        args: [
          fileURLToPath(
            new URL(
              options.asks === 'modern'
                ? './__fixtures__/asking-modern-server.mjs'
                : './__fixtures__/echo-server.mjs',
              import.meta.url,
            ),
          ),
        ],
        env: {
          PARITY_TOOLS: JSON.stringify(TOOLS.map((tool) => tool.definition)),
          // Every tool asks its caller to confirm mid-call first.
          ...(options.asks === true ? { PARITY_ASK: '1' } : {}),
        },
      },
    },
    toolSearch: { enabled: 'on' },
    approval,
    // Programs may call every tool: the parity is about the rest of the policy.
    programs: { enabled: true, allow: ['*'], limits: { maxWrites: 50 } },
  });
}

/** The arguments an approval question shows: the JSON object in its text. */
export function shownArguments(message: string): Record<string, unknown> | undefined {
  for (let start = message.indexOf('{'); start !== -1; start = message.indexOf('{', start + 1)) {
    for (let end = message.lastIndexOf('}'); end > start; end = message.lastIndexOf('}', end - 1)) {
      try {
        const value = JSON.parse(message.slice(start, end + 1)) as unknown;
        if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
      } catch {
        // not this span
      }
    }
  }
  return undefined;
}
