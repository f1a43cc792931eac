// The parity property over the libraries' surfaces: for random tools, policies and calls,
// a call through the bridge (single, batch, routed by its own name), a provider's strict
// client mode, Gemini's bridge and native client routes, the AI SDK adapter (tool_call, batch, repaired direct call) and the LangChain
// adapter in a LangGraph agent (tool_call, batch, a deferred tool by its own name) meets the
// same policy outcome, on the same final arguments, as the same call made directly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geminiBridge, geminiNativeClient } from './gemini-surfaces.js';
import { langChain } from './langchain-surface.js';
import {
  aiSdk,
  aiSdkReference,
  bridgeBatch,
  bridgeRoutedDirect,
  bridgeSingle,
  direct,
  providerStrict,
  type Surface,
} from './library-surfaces.js';
import { callArbitrary, worldArbitrary } from './model.js';

const scenario = worldArbitrary.chain((world) =>
  fc.record({ world: fc.constant(world), call: callArbitrary(world) }),
);

const surfaces: [string, Surface][] = [
  ['bridge: tool_call', bridgeSingle],
  ['bridge: tool_call batch', bridgeBatch],
  ['bridge: a deferred tool by its own name', bridgeRoutedDirect],
  ['providers: strict client mode', providerStrict],
  ['providers: Gemini generateContent, the bridge tool_call', geminiBridge('tool_call')],
  ['providers: Gemini generateContent, a deferred tool by its own name', geminiBridge('own-name')],
  ['providers: Gemini Interactions, client mode', geminiNativeClient],
];

describe('parity: the libraries', () => {
  for (const [label, surface] of surfaces) {
    it(`${label} meets the policy of a direct call, on the same final arguments`, async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ world, call }) => {
          expect(await surface(world, call)).toEqual(await direct(world, call));
        }),
        { numRuns: 150 },
      );
    });
  }

  for (const route of ['tool_call', 'batch', 'repaired'] as const) {
    it(`the AI SDK adapter (${route}) asks and runs what a direct call would, on the same final arguments`, async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ world, call }) => {
          expect(await aiSdk(route)(world, call)).toEqual(await aiSdkReference(world, call));
        }),
        { numRuns: 60 },
      );
    });
  }

  for (const route of ['tool_call', 'batch', 'by-name'] as const) {
    it(`the LangChain adapter (${route}) in a LangGraph agent meets the policy of a direct call, on the same final arguments`, async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ world, call }) => {
          expect(await langChain(route)(world, call)).toEqual(await direct(world, call));
        }),
        { numRuns: 60 },
      );
    });
  }
});
