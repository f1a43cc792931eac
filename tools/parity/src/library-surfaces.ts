// The surfaces of the libraries, each driven as a runtime would drive it: the model's call
// goes in, the outcome policy made of it comes out.
import { withToolSearch } from '@tool-search/ai-sdk';
import { type Assembly, assembleTools, handleBridgeCall, TOOL_CALL } from '@tool-search/bridge';
import type { ToolCall } from '@tool-search/core';
import { createDispatcher, type DispatchResult } from '@tool-search/hooks';
import { restoreStrictArguments, toStrictJsonSchema } from '@tool-search/providers';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, type ToolSet, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  createRecorder,
  deniedBy,
  type Outcome,
  outcomeOf,
  type ParityCall,
  type ParityWorld,
  policyOf,
  type Recorder,
  recordingExecute,
} from './model.js';

/** One way a call can reach a tool. */
export type Surface = (world: ParityWorld, call: ParityCall) => Promise<Outcome>;

function dispatcherOf(world: ParityWorld, recorder: Recorder) {
  const policy = policyOf(world, recorder);
  return createDispatcher({
    execute: recordingExecute(recorder),
    guardrails: [policy.guardrail],
    approval: policy.approval,
  });
}

function assemblyOf(world: ParityWorld): Assembly {
  return assembleTools({
    tools: world.tools.map((entry) => entry.definition),
    config: { enabled: 'on' },
  });
}

const nameOf = (world: ParityWorld, call: ParityCall) => world.tools[call.tool]!.definition.name;

/** The reference: the final call made directly, on a runtime where the tool is listed. */
export const direct: Surface = async (world, call) => {
  const recorder = createRecorder();
  const result = await dispatcherOf(world, recorder)(
    { name: nameOf(world, call), arguments: structuredClone(call.final) },
    { via: 'direct', tool: world.tools[call.tool]!.definition },
  );
  return outcomeOf(recorder, deniedBy(result));
};

async function throughBridge(
  world: ParityWorld,
  model: ToolCall,
  pick: (answer: unknown) => unknown,
): Promise<Outcome> {
  const recorder = createRecorder();
  const dispatch = dispatcherOf(world, recorder);
  const answer = await handleBridgeCall(assemblyOf(world), model, (real, context) =>
    dispatch(real, context),
  );
  return outcomeOf(recorder, deniedBy(pick(answer) as DispatchResult | undefined));
}

/** `tool_call { name, arguments }` through `handleBridgeCall`. */
export const bridgeSingle: Surface = (world, call) =>
  throughBridge(
    world,
    { name: TOOL_CALL, arguments: { name: nameOf(world, call), arguments: call.written } },
    (answer) => answer,
  );

/** `tool_call { calls: [...] }` through `handleBridgeCall`: the call is one item of a batch. */
export const bridgeBatch: Surface = (world, call) =>
  throughBridge(
    world,
    {
      name: TOOL_CALL,
      arguments: { calls: [{ name: nameOf(world, call), arguments: call.written }] },
    },
    (answer) => (answer as { results?: unknown[] }).results?.[0],
  );

/** The deferred tool called by its own name, which the bridge routes. */
export const bridgeRoutedDirect: Surface = (world, call) =>
  throughBridge(world, { name: nameOf(world, call), arguments: call.written }, (answer) => answer);

/**
 * A provider's client mode with OpenAI's strict schemas: the model must send every
 * property, `null` for the ones it leaves out; `restoreStrictArguments` gives the tool
 * its own arguments back before the call is dispatched.
 */
export const providerStrict: Surface = async (world, call) => {
  const { definition, properties } = world.tools[call.tool]!;
  // What the strict schema makes the model send: every property, null when left out.
  toStrictJsonSchema(definition.inputSchema);
  const sent = Object.fromEntries(properties.map((name) => [name, call.final[name] ?? null]));
  const restored = restoreStrictArguments(definition.inputSchema, sent) as Record<string, unknown>;
  const recorder = createRecorder();
  const result = await dispatcherOf(world, recorder)(
    { name: definition.name, arguments: restored },
    { via: 'direct', tool: definition },
  );
  return outcomeOf(recorder, deniedBy(result));
};

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function scriptedModel(first: { toolName: string; input: unknown }) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step += 1;
      const content =
        step === 1
          ? [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: first.toolName,
                input: JSON.stringify(first.input),
              },
            ]
          : [{ type: 'text', text: 'done' }];
      const finishReason = { unified: step === 1 ? 'tool-calls' : 'stop', raw: undefined };
      return { content, finishReason, usage, warnings: [] } as never;
    },
  });
}

/**
 * A world's tools as an AI SDK tool set: each with the AI SDK's own `needsApproval`
 * (recorded in `recorder.native`, deciding by the world's policy), running by recording.
 */
export function aiSdkToolSet(world: ParityWorld, recorder: Recorder): ToolSet {
  const policy = policyOf(world, recorder);
  const tools: ToolSet = {};
  for (const { definition } of world.tools) {
    tools[definition.name] = tool({
      description: definition.description ?? '',
      inputSchema: jsonSchema(definition.inputSchema as never),
      needsApproval: (input: unknown) => {
        recorder.native.push({
          name: definition.name,
          arguments: structuredClone(input) as never,
        });
        return policy.needsApproval(definition.name, input as Record<string, unknown>);
      },
      execute: (input: unknown) =>
        recordingExecute(recorder)({ name: definition.name, arguments: input as never }),
    }) as never;
  }
  return tools;
}

/** The AI SDK adapter's ways in: `tool_call`, a batch, and a deferred name the repair routes. */
export type AiSdkRoute = 'tool_call' | 'batch' | 'repaired';

/**
 * A call through `withToolSearch` in a real `generateText` loop, the model scripted by
 * the AI SDK's own mock. Each tool has the AI SDK's own `needsApproval`; when it asks,
 * the person approves and the conversation goes on, so the outcome says what it was asked
 * about and what policy made of the call afterwards.
 */
export const aiSdk =
  (route: AiSdkRoute): Surface =>
  async (world, call) => {
    const recorder = createRecorder();
    const policy = policyOf(world, recorder);
    const tools = aiSdkToolSet(world, recorder);
    // The dispatcher's own record of how each call settled.
    const settled: DispatchResult[] = [];
    const search = withToolSearch(tools, {
      config: { enabled: 'on' },
      guardrails: [policy.guardrail],
      approval: policy.approval,
      hooks: [{ name: 'settled', onSettled: ({ result }) => void settled.push(result) }],
    });
    const name = nameOf(world, call);
    const first =
      route === 'tool_call'
        ? { toolName: TOOL_CALL, input: { name, arguments: call.written } }
        : route === 'batch'
          ? { toolName: TOOL_CALL, input: { calls: [{ name, arguments: call.written }] } }
          : { toolName: name, input: call.written };
    const settings = {
      tools: search.tools,
      prepareStep: search.prepareStep,
      experimental_repairToolCall: search.repairToolCall,
      stopWhen: stepCountIs(3),
    };
    const prompt = 'do it';
    const result = await generateText({ ...settings, model: scriptedModel(first), prompt });
    const requests = result.steps
      .flatMap((step) => step.content as { type: string; approvalId?: string }[])
      .filter((part) => part.type === 'tool-approval-request');
    let native: Record<string, unknown> | undefined;
    if (requests.length > 0) {
      native = recorder.native.at(-1)?.arguments;
      const messages = [
        { role: 'user', content: prompt },
        ...result.response.messages,
        {
          role: 'tool',
          content: requests.map((request) => ({
            type: 'tool-approval-response',
            approvalId: request.approvalId,
            approved: true,
          })),
        },
      ] as ModelMessage[];
      await generateText({
        ...settings,
        model: scriptedModel({ toolName: 'none', input: {} }),
        messages,
      });
    }
    recorder.native.length = 0;
    const outcome = outcomeOf(recorder, deniedBy(settled.at(-1)));
    return native === undefined ? outcome : { ...outcome, native };
  };

/** What the AI SDK surfaces must match: the direct outcome, after the AI SDK's own question. */
export async function aiSdkReference(world: ParityWorld, call: ParityCall): Promise<Outcome> {
  const outcome = await direct(world, call);
  const recorder = createRecorder();
  const asks = policyOf(world, recorder).needsApproval(nameOf(world, call), call.final);
  return asks ? { ...outcome, native: call.final } : outcome;
}
