import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** One call the scripted model makes: a tool name and its input (an object, sent as JSON). */
export interface ScriptedCall {
  toolName: string;
  input: unknown;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * The AI SDK's own mock model, answering its first step with the given tool calls (ids
 * `call-1`, `call-2`, ...) and every later step with the text `done`, generated or
 * streamed.
 */
export function createScriptedModel(calls: readonly ScriptedCall[]) {
  let step = 0;
  const next = () => {
    step += 1;
    const content =
      step === 1
        ? calls.map((call, index) => ({
            type: 'tool-call' as const,
            toolCallId: `call-${index + 1}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          }))
        : [{ type: 'text' as const, text: 'done' }];
    const finishReason = { unified: step === 1 ? 'tool-calls' : 'stop', raw: undefined };
    return { content, finishReason };
  };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ ...next(), usage, warnings: [] }) as never,
    doStream: async () => {
      const { content, finishReason } = next();
      const chunks: unknown[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          chunks.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        } else {
          chunks.push(part);
        }
      }
      chunks.push({ type: 'finish', finishReason, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
      } as never;
    },
  });
}

/** The approval requests of a `generateText` result's steps. */
export function approvalRequests(result: {
  steps: readonly { content: readonly unknown[] }[];
}): { approvalId: string; toolCall: { toolName: string; input: unknown } }[] {
  return result.steps
    .flatMap((step) => step.content as { type: string }[])
    .filter((part) => part.type === 'tool-approval-request') as never;
}

/**
 * The messages that continue a conversation after its approval requests: the prompt,
 * the response so far and a tool message answering every request with `approved`.
 */
export function answerApprovals(
  prompt: string,
  result: {
    steps: readonly { content: readonly unknown[] }[];
    response: { messages: readonly ModelMessage[] };
  },
  approved: boolean,
): ModelMessage[] {
  return [
    { role: 'user', content: prompt },
    ...result.response.messages,
    {
      role: 'tool',
      content: approvalRequests(result).map((request) => ({
        type: 'tool-approval-response' as const,
        approvalId: request.approvalId,
        approved,
      })),
    },
  ] as ModelMessage[];
}
