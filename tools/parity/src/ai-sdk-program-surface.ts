// The AI SDK adapter's program surface: withToolSearch({ program }) in a real
// generateText loop, the model (the scripted model of @tool-search/ai-sdk/testing) calling
// tool_program with a program that makes the call with the arguments as the model wrote
// them. Each tool has the AI SDK's own needsApproval; when it asks, the person (the
// program's approval adapter) approves, as in the adapter's direct surface.
import { withToolSearch } from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { createProgramPolicy } from '@tool-search/code';
import type { DispatchResult } from '@tool-search/hooks';
import { generateText, stepCountIs } from 'ai';
import { aiSdkToolSet } from './library-surfaces.js';
import {
  createRecorder,
  deniedBy,
  type Outcome,
  outcomeOf,
  type ParityCall,
  type ParityWorld,
  policyOf,
} from './model.js';
import { oneCallProgram } from './program-surface.js';

/**
 * A call from a program through the AI SDK adapter: the outcome policy made of it, with
 * `native` when the AI SDK's own `needsApproval` sent it to the person.
 *
 * @param world - the tools and their policies
 * @param call - the call, as the model wrote it
 * @returns the outcome
 */
export async function aiSdkProgram(world: ParityWorld, call: ParityCall): Promise<Outcome> {
  const recorder = createRecorder();
  const policy = policyOf(world, recorder);
  const tools = aiSdkToolSet(world, recorder);
  const settled: DispatchResult[] = [];
  let personAsked = false;
  const search = withToolSearch(tools, {
    config: { enabled: 'on' },
    guardrails: [policy.guardrail],
    approval: policy.approval,
    hooks: [{ name: 'settled', onSettled: ({ result }) => void settled.push(result) }],
    program: {
      policy: createProgramPolicy({ allow: ['*'] }),
      poolSize: 1,
      approval: {
        name: 'person',
        request: () => {
          personAsked = true;
          return 'allow-once';
        },
      },
    },
  });
  try {
    const name = world.tools[call.tool]!.definition.name;
    const result = await generateText({
      model: createScriptedModel([
        { tool: 'tool_program', input: { source: oneCallProgram(name, call.written) } },
      ]),
      tools: search.tools,
      prepareStep: search.prepareStep,
      stopWhen: stepCountIs(2),
      prompt: 'do it',
    });
    const output = result.steps[0]?.toolResults[0]?.output as { status?: string } | undefined;
    if (output?.status !== 'completed')
      throw new Error(`the program failed: ${JSON.stringify(output)}`);
    const native = personAsked ? recorder.native.at(-1)?.arguments : undefined;
    recorder.native.length = 0;
    const outcome = outcomeOf(recorder, deniedBy(settled.at(-1)));
    return native === undefined ? outcome : { ...outcome, native };
  } finally {
    await search.program?.close();
  }
}
