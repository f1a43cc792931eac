// The program surface: a call made from inside a tool_program program (@tool-search/code),
// through a real QuickJS sandbox, with the arguments as the model wrote them. One program
// tool serves every run of a property: it reaches the current world's tools and dispatcher.
import { createProgramTool, type ProgramTool } from '@tool-search/code';
import type { ToolCall } from '@tool-search/core';
import { createDispatcher, type DispatchResult, type ToolCallContext } from '@tool-search/hooks';
import type { Surface } from './library-surfaces.js';
import {
  createRecorder,
  deniedBy,
  type Outcome,
  outcomeOf,
  type ParityCall,
  type ParityWorld,
  policyOf,
  recordingExecute,
} from './model.js';

/** A program surface and the program tool behind it (close it when done). */
export interface ProgramSurface {
  surface: Surface;
  program: ProgramTool;
}

/** The source of a program that makes one call and answers how it went. */
export function oneCallProgram(name: string, args: Record<string, unknown>): string {
  const written = JSON.stringify(JSON.stringify(args));
  return `try { return await tools.call(${JSON.stringify(name)}, JSON.parse(${written})); } catch (error) { return error.status; }`;
}

/**
 * Creates the program surface.
 *
 * @returns the surface and its program tool
 */
export function createProgramSurface(): ProgramSurface {
  let current: {
    world: ParityWorld;
    dispatch: (call: ToolCall, ctx?: ToolCallContext) => Promise<DispatchResult>;
  } = { world: { tools: [], policies: [] }, dispatch: async () => ({}) as DispatchResult };
  const program = createProgramTool({
    tools: () => current.world.tools.map((tool) => tool.definition),
    dispatch: (call, ctx) => current.dispatch(call, ctx),
    poolSize: 1,
  });
  const surface: Surface = async (world: ParityWorld, call: ParityCall): Promise<Outcome> => {
    const recorder = createRecorder();
    const policy = policyOf(world, recorder);
    const settled: DispatchResult[] = [];
    current = {
      world,
      dispatch: createDispatcher({
        execute: recordingExecute(recorder),
        guardrails: [policy.guardrail],
        approval: policy.approval,
        hooks: [{ name: 'settled', onSettled: ({ result }) => void settled.push(result) }],
      }),
    };
    const name = world.tools[call.tool]!.definition.name;
    const result = await program.run({ source: oneCallProgram(name, call.written) });
    if (result.status !== 'completed') {
      throw new Error(`the program failed: ${result.error?.code} ${result.error?.message}`);
    }
    return outcomeOf(recorder, deniedBy(settled.at(-1)));
  };
  return { surface, program };
}
