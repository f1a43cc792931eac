import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { isRecord } from '@tool-search/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreTools, forcedOn, mcpTools, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import type { BridgeDispatchContext } from './bridge-results.js';
import { handleBridgeCall } from './handle.js';
import { resolveUnderlyingCall } from './resolve.js';
import { unwrapToolCall } from './unwrap.js';

// A session that lost its Slack server since the previous turn: every name status
// (deferred, visible, known-but-gone, unknown, bridge) is reachable.
// A deferred tool without required arguments, so that only the object check guards dispatch.
const noRequired: ToolDefinition = {
  name: 'github_get_me',
  description: 'Get the authenticated GitHub user',
  inputSchema: { type: 'object', properties: {} },
  source: 'mcp',
  toolset: 'mcp-github',
};
const previous = assembleTools({ tools: sessionTools, config: forcedOn });
const assembly = assembleTools({
  tools: [...sessionTools.filter((tool) => tool.toolset !== 'mcp-slack'), noRequired],
  config: forcedOn,
  previous,
});
const deferredNames = assembly.deferred.map((tool) => tool.name);

const interestingName = fc.constantFrom(
  ...deferredNames,
  ...coreTools.map((tool) => tool.name),
  ...mcpTools.map((tool) => tool.name),
  'tool_call',
  'tool_search',
  'tool_describe',
  'jira_create_ticket',
  '',
  '  ',
  '__proto__',
  'constructor',
);
const anyName = fc.oneof(interestingName, fc.string(), fc.jsonValue());
// Keys the fixtures' schemas require, so that some generated calls are complete.
const argumentKeys = fc.constantFrom('owner', 'repo', 'title', 'body', 'query', 'path', 'sha', 'x');
const argumentsValue = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue(),
  fc.json(),
  fc.dictionary(argumentKeys, fc.jsonValue()),
  fc.dictionary(argumentKeys, fc.jsonValue()).map((value) => JSON.stringify(value)),
);
const innerCall = fc.record({ name: anyName, arguments: argumentsValue }, { requiredKeys: [] });
const bridgeArguments = fc.oneof(
  innerCall,
  innerCall.map((value) => JSON.stringify(value)),
  fc.record(
    { query: fc.oneof(fc.string(), interestingName, fc.jsonValue()), limit: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
  fc.string(),
);
// Calls that should succeed (every required argument present), in both routes.
const completeCall = fc
  .record({
    tool: fc.constantFrom(...assembly.deferred),
    extra: fc.dictionary(argumentKeys, fc.jsonValue()),
    direct: fc.boolean(),
    asText: fc.boolean(),
  })
  .map(({ tool, extra, direct, asText }) => {
    const args: Record<string, unknown> = { ...extra };
    for (const key of tool.inputSchema.required ?? []) args[key] = 'value';
    const payload = asText ? JSON.stringify(args) : args;
    return direct
      ? { name: tool.name, arguments: payload }
      : { name: 'tool_call', arguments: { name: tool.name, arguments: payload } };
  });
// Calls of a deferred tool with arbitrary arguments, in both routes.
const deferredCall = fc
  .record({
    name: fc.constantFrom(...deferredNames),
    payload: argumentsValue,
    direct: fc.boolean(),
  })
  .map(({ name, payload, direct }) =>
    direct
      ? { name, arguments: payload }
      : { name: 'tool_call', arguments: { name, arguments: payload } },
  );
const anyCall = fc.oneof(
  completeCall,
  deferredCall,
  fc.record(
    {
      id: fc.oneof(fc.string(), fc.jsonValue()),
      name: fc.constantFrom('tool_call', 'tool_search', 'tool_describe'),
      arguments: bridgeArguments,
    },
    { requiredKeys: ['name'] },
  ),
  fc.record({ name: anyName, arguments: argumentsValue }, { requiredKeys: [] }),
  fc.jsonValue(),
  fc.anything(),
);

describe('bridge properties', () => {
  it('resolveUnderlyingCall never throws, and resolves only to deferred tools with object arguments', () => {
    fc.assert(
      fc.property(anyCall, (call) => {
        const resolved = resolveUnderlyingCall(assembly, call as never);
        if (resolved.ok) {
          expect(deferredNames).toContain(resolved.call.name);
          expect(isRecord(resolved.call.arguments)).toBe(true);
          expect(resolved.tool).toBe(assembly.catalog.get(resolved.call.name));
        } else {
          expect(typeof resolved.error).toBe('string');
          expect(resolved.error.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('handleBridgeCall never throws, answers JSON data, and dispatches only deferred tools with object arguments', async () => {
    let dispatched = 0;
    const dispatch = (call: ToolCall, context: BridgeDispatchContext) => {
      dispatched += 1;
      expect(deferredNames).toContain(call.name);
      expect(isRecord(call.arguments)).toBe(true);
      expect(['bridge', 'direct']).toContain(context.via);
      expect(context.tool).toBe(assembly.catalog.get(call.name));
      for (const key of context.tool.inputSchema.required ?? []) {
        expect(Object.hasOwn(call.arguments, key)).toBe(true);
      }
      return { dispatched: call.name };
    };
    await fc.assert(
      fc.asyncProperty(anyCall, async (call) => {
        const answer = handleBridgeCall(assembly, call as never, dispatch);
        if (answer === undefined) return;
        const result = await answer;
        expect(isRecord(result)).toBe(true);
        expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      }),
      { numRuns: 300 },
    );
    // The generators do reach dispatch, so the checks inside it were exercised.
    expect(dispatched).toBeGreaterThan(0);
  });

  it('unwrapToolCall never throws and always gives a string name', () => {
    fc.assert(
      fc.property(anyCall, (call) => {
        const unwrapped = unwrapToolCall(call);
        expect(typeof unwrapped.name).toBe('string');
        expect(typeof unwrapped.viaBridge).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('assembling ignores stale bridge tools anywhere in the input', () => {
    const staleBridges = previous.tools.slice(-3);
    const toolList = fc.shuffledSubarray([...sessionTools, ...staleBridges]);
    fc.assert(
      fc.property(toolList, fc.constantFrom('auto', 'on', 'off'), (tools, enabled) => {
        const withStale = assembleTools({ tools, config: { enabled } });
        const withoutBridges = tools.filter((tool) => !staleBridges.includes(tool));
        const clean = assembleTools({ tools: withoutBridges, config: { enabled } });
        expect(withStale.tools).toEqual(clean.tools);
        expect(withStale.decision).toEqual(clean.decision);
        const names = withStale.tools.map((tool) => tool.name);
        expect(new Set(names).size).toBe(names.length);
      }),
      { numRuns: 100 },
    );
  });
});
