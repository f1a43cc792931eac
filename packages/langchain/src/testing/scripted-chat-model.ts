import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** One scripted tool call: the tool's name and its arguments, as a model writes them. */
export interface ScriptedToolCall {
  name: string;
  args: unknown;
}

/** What one turn answers: tool calls (run side by side, as a model's parallel calls), or a final text. */
export type ScriptedAnswer = { calls: ScriptedToolCall[] } | { text: string };

/**
 * One turn of a {@link createScriptedChatModel}: an answer, or a function of the messages
 * so far that returns one (to read a tool's result before the next call).
 */
export type ScriptedTurn = ScriptedAnswer | ((messages: BaseMessage[]) => ScriptedAnswer);

/** What a {@link ScriptedChatModel} adds to a LangChain chat model. */
export interface ScriptedBindings {
  /** The tool names of each `bindTools` call, in order: what the model was shown. */
  readonly bound: string[][];
  /** Records the tools' names and returns the model itself. */
  bindTools(tools: StructuredToolInterface[]): ScriptedChatModel;
}

/** The model {@link createScriptedChatModel} makes: a LangChain `BaseChatModel` that records what it was shown. */
export type ScriptedChatModel = BaseChatModel & ScriptedBindings;

class ScriptedModel extends BaseChatModel implements ScriptedBindings {
  readonly bound: string[][] = [];
  private turn = 0;

  constructor(private readonly turns: readonly ScriptedTurn[]) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: StructuredToolInterface[]): this {
    this.bound.push(tools.map((tool) => tool.name));
    return this;
  }

  async _generate(
    messages: BaseMessage[],
    _options?: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const scripted = this.turns[this.turn] ?? { text: 'Done.' };
    this.turn += 1;
    const answer = typeof scripted === 'function' ? scripted(messages) : scripted;
    const message =
      'text' in answer
        ? new AIMessage(answer.text)
        : new AIMessage({
            content: '',
            tool_calls: answer.calls.map((call, index) => ({
              id: `call_${this.turn}_${index}`,
              name: call.name,
              args: call.args as Record<string, unknown>,
              type: 'tool_call' as const,
            })),
          });
    return { generations: [{ text: 'text' in answer ? answer.text : '', message }] };
  }
}

/**
 * A LangChain chat model that plays scripted turns as a real model would: each turn's
 * tool calls become `AIMessage.tool_calls` (with ids), and a text ends the run; after the
 * script, it answers `Done.`. It binds any tools (`bindTools` records their names in
 * `bound`), so it works in `createAgent`, `createReactAgent` and a graph of your own,
 * without an API key. `@langchain/core`'s fake chat models play texts, or the same tool
 * calls every turn.
 *
 * @example
 * ```ts
 * const model = createScriptedChatModel([
 *   { calls: [{ name: 'tool_search', args: { query: 'weather' } }] },
 *   { calls: [{ name: 'tool_call', args: { name: 'get_weather', arguments: { city: 'Oslo' } } }] },
 *   { text: 'It is cold.' },
 * ]);
 * ```
 *
 * @param turns - the turns, in order
 * @returns the model
 * @throws nothing
 */
export function createScriptedChatModel(turns: readonly ScriptedTurn[]): ScriptedChatModel {
  return new ScriptedModel(turns);
}
