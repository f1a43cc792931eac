import type { ToolCall } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
const deferred = assembly.deferred;

// Items a model may put in `calls`: complete calls of deferred tools, calls that miss
// required arguments, names outside the catalog, bridge names, and garbage.
const completeCall = fc.constantFrom(...deferred).chain((tool) =>
  fc.record({
    name: fc.constant(tool.name),
    arguments: fc
      .dictionary(fc.constantFrom('x', 'y', 'text'), fc.jsonValue(), { maxKeys: 2 })
      .map((extra) => {
        const args: Record<string, unknown> = { ...extra };
        for (const key of tool.inputSchema.required ?? []) args[key] = `${key}-value`;
        return args;
      })
      .chain((args) => fc.constantFrom(args, JSON.stringify(args))),
  }),
);
const item = fc.oneof(
  { arbitrary: completeCall, weight: 5 },
  fc.record({
    name: fc.constantFrom(...deferred.map((tool) => tool.name)),
    arguments: fc.constant({}),
  }),
  fc.record({
    name: fc.constantFrom('bash', 'tool_call', 'tool_search', 'jira_create', '', '  '),
    arguments: fc.jsonValue(),
  }),
  fc.jsonValue(),
);

async function recordSingle(value: unknown) {
  const log: ToolCall[] = [];
  const answer = await handleBridgeCall(
    assembly,
    { name: 'tool_call', arguments: value },
    (call) => {
      log.push(call);
      return { ran: call.name, with: call.arguments };
    },
  );
  return { log, answer };
}

describe('tool_call with calls (properties)', () => {
  it('dispatches each call exactly once, in order, as its single tool_call would, and answers in order', async () => {
    let batchesWithSeveralDispatches = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 10 }), async (items) => {
        const log: ToolCall[] = [];
        const answer = await handleBridgeCall(
          assembly,
          { name: 'tool_call', arguments: { calls: items } },
          (call) => {
            log.push(call);
            return { ran: call.name, with: call.arguments };
          },
        );
        const singles = [];
        for (const value of items) singles.push(await recordSingle(value));
        expect(answer).toEqual({ results: singles.map((single) => single.answer) });
        expect(log).toEqual(singles.flatMap((single) => single.log));
        // A single tool_call dispatches at most once, so the batch ran each call at most once.
        expect(singles.every((single) => single.log.length <= 1)).toBe(true);
        batchesWithSeveralDispatches += log.length > 1 ? 1 : 0;
      }),
      { numRuns: 200 },
    );
    // Guards the property against generating only batches that dispatch nothing.
    expect(batchesWithSeveralDispatches).toBeGreaterThan(20);
  });

  it('runs nothing when the batch is over the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(completeCall, { minLength: 11, maxLength: 30 }), async (items) => {
        let dispatched = 0;
        const answer = await handleBridgeCall(
          assembly,
          { name: 'tool_call', arguments: { calls: items } },
          () => {
            dispatched += 1;
          },
        );
        expect(answer).toHaveProperty('error', expect.stringContaining('at most 10 calls'));
        expect(dispatched).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});

describe('batches of anything (properties)', () => {
  it('never throw: any queries, names or calls answer data', async () => {
    const list = fc.oneof(
      fc.jsonValue(),
      fc.array(fc.jsonValue(), { maxLength: 12 }),
      fc.array(fc.jsonValue(), { maxLength: 12 }).map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tool_search', 'tool_describe', 'tool_call'),
        fc.record(
          { query: fc.jsonValue(), queries: list, name: fc.jsonValue(), names: list, calls: list },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        async (tool, args, asJson) => {
          const answer = await handleBridgeCall(
            assembly,
            { name: tool, arguments: asJson ? JSON.stringify(args) : args },
            (call) => ({ ran: call.name }),
          );
          expect(typeof answer).toBe('object');
          expect(answer).not.toBeNull();
          expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
        },
      ),
      { numRuns: 300 },
    );
  });
});
