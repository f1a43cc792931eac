// The Gemini routes of `@tool-search/providers/gemini`, driven as a Gemini loop drives them:
// the model's function call goes in through `dispatchGeminiFunctionCall` or
// `dispatchGeminiInteractionCall`, the outcome policy made of it comes out.
import { assembleTools, handleBridgeCall, TOOL_CALL } from '@tool-search/bridge';
import { createDispatcher, type DispatchResult } from '@tool-search/hooks';
import type { ProviderDispatch } from '@tool-search/providers';
import {
  dispatchGeminiFunctionCall,
  dispatchGeminiInteractionCall,
  prepareGeminiInteractionTools,
  prepareGeminiTools,
} from '@tool-search/providers/gemini';
import type { Surface } from './library-surfaces.js';
import {
  createRecorder,
  deniedBy,
  outcomeOf,
  type ParityWorld,
  policyOf,
  type Recorder,
  recordingExecute,
} from './model.js';

// The dispatcher of the world, and the last outcome it settled (the Gemini answer is text).
function recordedDispatch(world: ParityWorld, recorder: Recorder) {
  const policy = policyOf(world, recorder);
  const dispatcher = createDispatcher({
    execute: recordingExecute(recorder),
    guardrails: [policy.guardrail],
    approval: policy.approval,
  });
  const settled: DispatchResult[] = [];
  const dispatch: ProviderDispatch = async (call, context) => {
    const tool = world.tools.find((entry) => entry.definition.name === call.name)?.definition;
    const result = await dispatcher(call, { ...context, ...(tool === undefined ? {} : { tool }) });
    settled.push(result);
    return result;
  };
  return { dispatch, settled };
}

const definitions = (world: ParityWorld) => world.tools.map((entry) => entry.definition);
const nameOf = (world: ParityWorld, tool: number) => world.tools[tool]!.definition.name;

/** `generateContent` in bridge mode: the model's `tool_call` function call, unwrapped by the bridge. */
export const geminiBridge =
  (route: 'tool_call' | 'own-name'): Surface =>
  async (world, call) => {
    const recorder = createRecorder();
    const { dispatch, settled } = recordedDispatch(world, recorder);
    const prepared = await prepareGeminiTools(definitions(world), {
      bridge: assembleTools,
      config: { enabled: 'on' },
    });
    const name = nameOf(world, call.tool);
    const functionCall =
      route === 'tool_call'
        ? { id: 'c1', name: TOOL_CALL, args: { name, arguments: call.written } }
        : { id: 'c1', name: prepared.names.toProvider(name), args: call.written };
    await dispatchGeminiFunctionCall(prepared, functionCall, dispatch, {
      bridge: handleBridgeCall,
    });
    return outcomeOf(recorder, deniedBy(settled.at(-1)));
  };

/**
 * The Interactions API in client mode: the platform loaded the tool after our search, and
 * the model calls it by its name with arguments the platform holds to its schema.
 */
export const geminiNativeClient: Surface = async (world, call) => {
  const recorder = createRecorder();
  const { dispatch, settled } = recordedDispatch(world, recorder);
  const prepared = await prepareGeminiInteractionTools(definitions(world), {
    mode: 'client',
    config: { enabled: 'on' },
  });
  const name = prepared.names.toProvider(nameOf(world, call.tool));
  await dispatchGeminiInteractionCall(
    prepared,
    { id: 'f1', name, arguments: structuredClone(call.final) },
    dispatch,
  );
  return outcomeOf(recorder, deniedBy(settled.at(-1)));
};
