// A batch through `tool_call` meets, call by call, exactly the policy of the same calls
// made directly one after the other: guardrails, hooks and approvals run per call, in
// order, on the real names and arguments, and one refusal does not stop the others.
// The bridge is assembled in OpenAI strict mode, so the model's arguments arrive as
// JSON text inside JSON text.
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCallbackApproval } from './callback-approval.js';
import { createDispatcher } from './dispatcher.js';
import { createPolicyApproval } from './policy-approval.js';
import { createSchemaGuardrail } from './schema-guardrail.js';
import { createToolPolicyGuardrail } from './tool-policy-guardrail.js';
import type { DispatchContext, DispatchResult } from './types.js';

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const tools: ToolDefinition[] = [
  {
    name: 'bash',
    description: 'Run a shell command',
    inputSchema: object({ command: { type: 'string' } }, ['command']),
    source: 'core',
  },
  {
    name: 'github_create_issue',
    description: 'Create an issue in a GitHub repository',
    inputSchema: object({ repo: { type: 'string' }, title: { type: 'string' } }, ['repo', 'title']),
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_delete_repo',
    description: 'Delete a GitHub repository',
    inputSchema: object({ repo: { type: 'string' } }, ['repo']),
    source: 'mcp',
    toolset: 'mcp-github',
    annotations: { destructiveHint: true },
  },
  {
    name: 'slack_post_message',
    description: 'Post a message to a Slack channel',
    inputSchema: object({ channel: { type: 'string' }, text: { type: 'string' } }, [
      'channel',
      'text',
    ]),
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'fs_secret_read',
    description: 'Read a secret file',
    inputSchema: object({ path: { type: 'string' } }, ['path']),
    source: 'plugin',
    toolset: 'plugin-fs',
  },
];
const byName = new Map(tools.map((tool) => [tool.name, tool]));
const deferred = tools.filter((tool) => tool.source !== 'core');

/** A dispatcher with a policy, a schema check, a denying hook and an asking approval, recording each step. */
function world(answers: readonly ('allow-once' | 'deny')[]) {
  const log: { step: string; call: ToolCall; via: string | undefined }[] = [];
  const record = (step: string, call: ToolCall, ctx: { via?: string | undefined }) =>
    log.push({ step, call: structuredClone(call), via: ctx.via });
  let asked = 0;
  const dispatch = createDispatcher({
    execute: (call, ctx) => {
      record('execute', call, ctx);
      return { done: call.name };
    },
    guardrails: [
      createToolPolicyGuardrail({ deny: { toolsets: ['plugin-fs'] } }),
      createSchemaGuardrail((name) => byName.get(name)),
    ].map((guardrail) => ({
      name: guardrail.name,
      check: (call: ToolCall, ctx: DispatchContext) => {
        record(`guardrail:${guardrail.name}`, call, ctx);
        return guardrail.check(call, ctx);
      },
    })),
    hooks: [
      {
        name: 'no-spam',
        beforeCall: (call, ctx) => {
          record('beforeCall', call, ctx);
          return call.arguments['text'] === 'spam' ? { deny: 'no spam' } : undefined;
        },
        afterCall: (call, _result, ctx) => void record('afterCall', call, ctx),
      },
    ],
    approval: createPolicyApproval({
      require: { annotations: { destructiveHint: true } },
      otherwise: 'allow',
      ask: createCallbackApproval((request) => {
        record('approval', request.call, { via: undefined });
        return answers[asked++ % answers.length]!;
      }),
    }),
    resolveTool: (name) => byName.get(name),
  });
  return { log, dispatch };
}

const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  repo: fc.constantFrom('web', 'api'),
  title: fc.constantFrom('Bug', 'Feature'),
  channel: fc.constant('C1'),
  text: fc.constantFrom('hello', 'spam'),
  path: fc.constant('/etc/secret'),
};
// Mostly well-formed calls of the tool's own properties; sometimes one is left out or an
// extra one is added (the bridge's argument check refuses both before any dispatch).
const callArbitrary = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...deferred).chain((tool) => {
      const keys = Object.keys(tool.inputSchema.properties ?? {});
      return fc.record({
        name: fc.constant(tool.name),
        arguments: fc
          .tuple(
            fc.record(Object.fromEntries(keys.map((key) => [key, VALUES[key]!]))),
            // Mostly well-formed, so that every outcome past the bridge is common.
            fc.oneof(
              { weight: 5, arbitrary: fc.constant(undefined) },
              { weight: 1, arbitrary: fc.constantFrom(...keys) },
            ),
            fc.oneof(
              { weight: 5, arbitrary: fc.constant(undefined) },
              { weight: 1, arbitrary: fc.integer() },
            ),
          )
          .map(([values, dropped, extra]) => {
            const args: Record<string, unknown> = { ...values };
            if (dropped !== undefined) delete args[dropped];
            if (extra !== undefined) args['extra'] = extra;
            return args;
          }),
      });
    }),
  },
  fc.record({
    name: fc.constantFrom('bash', 'jira_create', 'tool_call'),
    arguments: fc.constant({}),
  }),
);

describe('a tool_call batch through the hooks dispatcher (strict mode)', () => {
  it('runs each call through guardrails, hooks and approval on its own, in order, as direct calls would', async () => {
    const assembly = assembleTools({ tools, config: { enabled: 'on' }, strict: true });
    const strictCall = assembly.tools.find((tool) => tool.name === 'tool_call')!;
    expect(strictCall.inputSchema.additionalProperties).toBe(false);

    const sawEveryOutcome = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { minLength: 1, maxLength: 10 }),
        fc.array(fc.constantFrom('allow-once' as const, 'deny' as const), {
          minLength: 1,
          maxLength: 3,
        }),
        async (calls, answers) => {
          const bridged = world(answers);
          const direct = world(answers);
          // The strict form: every field present, arguments as JSON text.
          const modelArguments = JSON.stringify({
            name: null,
            arguments: null,
            calls: calls.map((call) => ({
              name: call.name,
              arguments: JSON.stringify(call.arguments),
            })),
          });
          const answer = (await handleBridgeCall(
            assembly,
            { id: 'turn1', name: 'tool_call', arguments: modelArguments },
            (real, ctx) => bridged.dispatch(real, { via: ctx.via, tool: ctx.tool }),
          )) as { results: (DispatchResult | { error: string })[] };

          expect(answer.results).toHaveLength(calls.length);
          for (const [index, call] of calls.entries()) {
            const result = answer.results[index]!;
            const tool = byName.get(call.name);
            const missing = (tool?.inputSchema.required ?? []).some(
              (key) => !(key in call.arguments),
            );
            const extra = Object.keys(call.arguments).some(
              (key) => !(key in (tool?.inputSchema.properties ?? {})),
            );
            if (tool === undefined || tool.source === 'core' || missing || extra) {
              // Refused by the bridge (not deferred, or arguments that break the schema):
              // never reached the dispatcher.
              expect(result).toHaveProperty('error');
              sawEveryOutcome.add('bridge-refused');
              continue;
            }
            const directly = await direct.dispatch(
              { id: `turn1#${index}`, name: call.name, arguments: call.arguments },
              {},
            );
            expect(result).toEqual(directly);
            sawEveryOutcome.add(
              directly.status === 'denied' ? `denied:${directly.by.kind}` : directly.status,
            );
          }
          const strip = ({ via: _via, ...rest }: (typeof bridged.log)[number]) => rest;
          expect(bridged.log.map(strip)).toEqual(direct.log.map(strip));
          expect(bridged.log.every((entry) => entry.call.name !== 'tool_call')).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    // Guards the property: every kind of outcome happened inside some batch.
    expect([...sawEveryOutcome].sort()).toEqual([
      'bridge-refused',
      'denied:approval',
      'denied:guardrail',
      'denied:hook',
      'ok',
    ]);
  }, 120_000);
});
