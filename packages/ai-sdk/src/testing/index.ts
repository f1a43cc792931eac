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

/**
 * A model that plays the given turns in order, one per step, for `generateText` and
 * `streamText` alike; after the last it answers `done`. What it was sent is on
 * `model.doGenerateCalls` / `model.doStreamCalls` (the request's tools among them).
 *
 * @param turns - the model's turns
 * @returns the model (a `MockLanguageModelV3`)
 * @throws nothing
 */
export function createScriptedModel(turns: readonly ScriptedTurn[]): MockLanguageModelV3 {
  let turn = 0;
  const next = () => {
    turn += 1;
    return turnContent(turns[turn - 1] ?? { text: 'done' }, turn);
  };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ ...next(), usage, warnings: [] }),
    doStream: async () => {
      const { content, finishReason } = next();
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
