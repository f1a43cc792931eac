import { isRecord } from '@tool-search/core/internal';
import { MockLanguageModelV3 } from 'ai/test';

/** How the scripted model calls the tool it found. */
export type CallStyle = 'tool_call' | 'direct' | 'after-describe';

/** One task for the scripted model: search for it, load the best match, call it. */
export interface AgentTask {
  query: string;
  arguments: Record<string, unknown>;
  /** `tool_call`: through the bridge; `direct`: by its name without loading; `after-describe`: load, then by its name. */
  style: CallStyle;
  /** Skip the search and call this name (for scope and approval checks). */
  name?: string;
}

/** What the scripted model saw at each step. */
export interface AgentStep {
  tools: string[];
}

type Part = Record<string, unknown>;

function lastToolResult(prompt: unknown[]): { toolName: string; value: unknown } | undefined {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (!isRecord(message)) continue;
    if (message['role'] === 'user') return undefined;
    if (message['role'] !== 'tool' || !Array.isArray(message['content'])) continue;
    const parts = (message['content'] as Part[]).filter((part) => part['type'] === 'tool-result');
    const part = parts.at(-1);
    if (!part) continue;
    const output = part['output'];
    const value = isRecord(output) && 'value' in output ? output['value'] : output;
    return { toolName: String(part['toolName']), value };
  }
  return undefined;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * A language model that works like an agent over tool search, with no script of tool
 * names: it searches with the task's query, loads the first match `tool_search` returned
 * with `tool_describe`, calls it the way the task says, and then answers with the
 * result it got back. It records the tool names it was offered at each step. With
 * `streamInput`, streamText gets each call's input in deltas before the call.
 */
export function createAgentModel(task: AgentTask, settings: { streamInput?: boolean } = {}) {
  const steps: AgentStep[] = [];
  let counter = 0;
  const decide = (options: { prompt: unknown[]; tools?: { name: string }[] }) => {
    const offered = (options.tools ?? []).map((tool) => tool.name);
    steps.push({ tools: offered });
    const id = `call-${++counter}`;
    const call = (toolName: string, input: unknown) => ({
      type: 'tool-call' as const,
      toolCallId: id,
      toolName,
      input: JSON.stringify(input),
    });
    const last = lastToolResult(options.prompt);
    if (last === undefined) {
      if (task.name !== undefined) {
        return task.style === 'tool_call'
          ? call('tool_call', { name: task.name, arguments: task.arguments })
          : call(task.name, task.arguments);
      }
      return call(offered.includes('tool_search') ? 'tool_search' : 'search_tools', {
        query: task.query,
      });
    }
    if (last.toolName === 'tool_search' || last.toolName === 'search_tools') {
      const value = last.value as { matches?: { name: string }[]; tools?: { name: string }[] };
      const name = (value.matches ?? value.tools)?.[0]?.name;
      if (name === undefined) return { type: 'text' as const, text: 'nothing found' };
      if (task.style === 'direct') return call(name, task.arguments);
      if (last.toolName === 'search_tools') return call(name, task.arguments);
      return call('tool_describe', { name });
    }
    if (last.toolName === 'tool_describe') {
      const name = (last.value as { name: string }).name;
      return task.style === 'tool_call'
        ? call('tool_call', { name, arguments: task.arguments })
        : call(name, task.arguments);
    }
    return { type: 'text' as const, text: `done: ${JSON.stringify(last.value)}` };
  };

  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const part = decide(options as never);
      return {
        content: [part],
        finishReason: { unified: part.type === 'text' ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      } as never;
    },
    doStream: async (options) => {
      const part = decide(options as never);
      const chunks: Part[] = [{ type: 'stream-start', warnings: [] }];
      if (part.type === 'text') {
        chunks.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: part.text },
          { type: 'text-end', id: 't' },
        );
      } else if (settings.streamInput) {
        // As a provider streams a call: its input in pieces, then the whole call.
        const id = part.toolCallId;
        chunks.push({ type: 'tool-input-start', id, toolName: part.toolName });
        const third = Math.ceil(part.input.length / 3);
        for (let start = 0; start < part.input.length; start += third) {
          chunks.push({
            type: 'tool-input-delta',
            id,
            delta: part.input.slice(start, start + third),
          });
        }
        chunks.push({ type: 'tool-input-end', id }, part);
      } else {
        chunks.push(part);
      }
      chunks.push({
        type: 'finish',
        finishReason: { unified: part.type === 'text' ? 'stop' : 'tool-calls', raw: undefined },
        usage,
      });
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
  return { model, steps };
}
