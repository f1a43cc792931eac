// The LangChain route: the model's call goes through @tool-search/langchain's tools in a
// real LangGraph agent (createReactAgent for the bridge; langchain's createAgent with the
// setup's middleware for a deferred tool called by its own name), the model scripted by the
// package's own createScriptedChatModel.
import { DynamicStructuredTool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { TOOL_CALL } from '@tool-search/bridge';
import type { DispatchResult } from '@tool-search/hooks';
import { withToolSearch } from '@tool-search/langchain';
import { createScriptedChatModel } from '@tool-search/langchain/testing';
import { createAgent } from 'langchain';
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

/** The LangChain setup's ways in: `tool_call`, a batch, and a deferred tool by its own name. */
export type LangChainRoute = 'tool_call' | 'batch' | 'by-name';

/** A world's tools as LangChain tools (JSON Schema), running by recording. */
function langChainTools(world: ParityWorld, recorder: Recorder) {
  const execute = recordingExecute(recorder);
  return world.tools.map(
    ({ definition }) =>
      new DynamicStructuredTool({
        name: definition.name,
        description: definition.description ?? '',
        schema: definition.inputSchema as Record<string, unknown>,
        func: async (input: Record<string, unknown>) =>
          JSON.stringify(execute({ name: definition.name, arguments: input })),
      }),
  );
}

/**
 * A call through `withToolSearch` of `@tool-search/langchain` in a real `createReactAgent`:
 * the guardrail and the approval of the world in the setup's one dispatcher; a deferred
 * tool the model calls by its own name reaches the same dispatcher through the setup's
 * middleware in langchain's `createAgent` (the model is never shown it).
 */
export const langChain =
  (route: LangChainRoute): Surface =>
  async (world, call) => {
    const recorder = createRecorder();
    const policy = policyOf(world, recorder);
    const settled: DispatchResult[] = [];
    const search = withToolSearch(langChainTools(world, recorder), {
      source: 'mcp',
      config: { enabled: 'on' },
      guardrails: [policy.guardrail],
      approval: policy.approval,
      hooks: [{ name: 'settled', onSettled: ({ result }) => void settled.push(result) }],
      logger: { warn() {} },
    });
    const name = world.tools[call.tool]!.definition.name;
    const first =
      route === 'tool_call'
        ? { name: TOOL_CALL, args: { name, arguments: call.written } }
        : route === 'batch'
          ? { name: TOOL_CALL, args: { calls: [{ name, arguments: call.written }] } }
          : { name, args: call.written };
    const model = createScriptedChatModel([{ calls: [first] }, { text: 'done' }]);
    const input = { messages: [{ role: 'user', content: 'do it' }] };
    if (route === 'by-name') {
      await createAgent({ model, tools: search.tools, middleware: [search.middleware] }).invoke(
        input,
      );
    } else {
      await createReactAgent({ llm: model, tools: search.tools }).invoke(input);
    }
    return outcomeOf(recorder, deniedBy(settled.at(-1)));
  };
