import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** One scripted turn: tool calls, or a final text. A function reads the messages so far. */
export type ScriptedTurn =
  | { calls: { name: string; args: unknown }[] }
  | { text: string }
  | ((messages: BaseMessage[]) => { calls: { name: string; args: unknown }[] } | { text: string });

/**
 * A chat model that plays scripted tool calls, as a real model's `AIMessage.tool_calls`
 * (LangChain's fake chat models play texts, or the same chunks on every turn). It records
 * the tool names each `bindTools` bound: what the model was shown.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly bound: string[][] = [];
  private turn = 0;
  private readonly turns: ScriptedTurn[];

  constructor(turns: ScriptedTurn[]) {
    super({});
    this.turns = turns;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: StructuredToolInterface[]): this {
    this.bound.push(tools.map((tool) => tool.name));
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const scripted = this.turns[this.turn] ?? { text: 'done' };
    this.turn += 1;
    const step = typeof scripted === 'function' ? scripted(messages) : scripted;
    const message =
      'text' in step
        ? new AIMessage(step.text)
        : new AIMessage({
            content: '',
            tool_calls: step.calls.map((call, index) => ({
              id: `call_${this.turn}_${index}`,
              name: call.name,
              args: call.args as Record<string, unknown>,
              type: 'tool_call' as const,
            })),
          });
    return {
      generations: [{ text: typeof message.content === 'string' ? message.content : '', message }],
    };
  }
}
