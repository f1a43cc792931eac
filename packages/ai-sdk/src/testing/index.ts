/**
 * Test helpers for apps on `@tool-search/ai-sdk`: a scripted model that answers as a
 * provider would, so an agent loop with tool search runs in a unit test without an API
 * key (on `ai` 6 and 7; it is the AI SDK's own `MockLanguageModelV3` from `ai/test`).
 *
 * @example
 * ```ts
 * import { createScriptedModel } from '@tool-search/ai-sdk/testing';
 *
 * const model = createScriptedModel([
 *   { tool: 'tool_search', input: { query: 'create a github issue' } },
 *   { tool: 'tool_call', input: { name: 'github_create_issue', arguments: { repo: 'acme/app', title: 'Login' } } },
 *   { text: 'Filed it.' },
 * ]);
 * const result = await generateText({ model, ...search, stopWhen: stepCountIs(5), prompt: 'File it' });
 * ```
 *
 * @packageDocumentation
 */
import { MockLanguageModelV3 } from 'ai/test';

/** One turn of a {@link createScriptedModel}: a tool call, or a text that ends the run. */
export type ScriptedTurn = { tool: string; input: object } | { text: string };

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function turnContent(next: ScriptedTurn, turn: number) {
  if ('text' in next) {
    return {
      content: [{ type: 'text' as const, text: next.text }],
      finishReason: { unified: 'stop' as const, raw: undefined },
    };
  }
  return {
    content: [
      {
        type: 'tool-call' as const,
        toolCallId: `call_${turn}`,
        toolName: next.tool,
        input: JSON.stringify(next.input),
      },
    ],
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
  };
}

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /**
   * Told when a turn calls a tool that is not among the tools of its step (the AI SDK
   * then answers `AI_NoSuchToolError`, e.g. `tool_search` while tool search is inactive).
   * @defaultValue `console`
   */
  logger?: { warn(message: string): void };
}

interface StepCall {
  tools?: readonly { name: string }[];
}

/**
 * A model that plays the given turns in order, one per step, for `generateText` and
 * `streamText` alike; after the last it answers `done`. What it was sent is on
 * `model.doGenerateCalls` / `model.doStreamCalls` (the request's tools among them). A turn
 * that calls a tool its step was not given is played all the same, with a warning: the
 * script and the tools disagree (is tool search inactive? see `await search.decision`).
 *
 * @param turns - the model's turns
 * @param options - see {@link ScriptedModelOptions}
 * @returns the model (a `MockLanguageModelV3`)
 * @throws nothing
 */
export function createScriptedModel(
  turns: readonly ScriptedTurn[],
  options: ScriptedModelOptions = {},
): MockLanguageModelV3 {
  const logger = options.logger ?? console;
  let turn = 0;
  const next = (call: StepCall) => {
    turn += 1;
    const scripted = turns[turn - 1] ?? { text: 'done' };
    if ('tool' in scripted) {
      const names = (call.tools ?? []).map((tool) => tool.name);
      if (!names.includes(scripted.tool)) {
        logger.warn(
          `createScriptedModel: turn ${turn} calls '${scripted.tool}', which is not among the tools of its step (${names.length === 0 ? 'none' : names.join(', ')}): the AI SDK answers AI_NoSuchToolError. Is tool search inactive? See \`await search.decision\`.`,
        );
      }
    }
    return turnContent(scripted, turn);
  };
  return new MockLanguageModelV3({
    doGenerate: async (call) => ({ ...next(call as StepCall), usage, warnings: [] }),
    doStream: async (call) => {
      const { content, finishReason } = next(call as StepCall);
      const parts = content.flatMap((part): StreamPart[] =>
        part.type === 'text'
          ? [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: part.text },
              { type: 'text-end', id: 't' },
            ]
          : [part],
      );
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of [...parts, { type: 'finish' as const, finishReason, usage }]) {
              controller.enqueue(part);
            }
            controller.close();
          },
        }),
      };
    },
  });
}
