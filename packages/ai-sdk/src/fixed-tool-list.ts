import { isRecord } from '@tool-search/core/internal';

/**
 * Whether a conversation's tool list stays fixed: `true` keeps the tools a model is sent
 * the same on every step (a tool loaded with `tool_describe` is called through
 * `tool_call`, or by its name, which the repair routes there); `false` lets a loaded tool
 * join the tools from the next step on; `'auto'` keeps the list fixed for Anthropic
 * models, whose API refuses (or drops the thinking of) a request whose `tools` changed
 * after a thinking block.
 */
export type FixedToolList = boolean | 'auto';

/**
 * Whether a step's model is one of Anthropic's (Claude), through any provider: the
 * `@ai-sdk/anthropic` provider (`anthropic.messages`), Vertex or Bedrock's Anthropic
 * models, or a gateway model id such as `anthropic/claude-sonnet-5`.
 *
 * @param model - the step's model, as `prepareStep` gets it (an object or a model id)
 * @returns true for a Claude model
 * @throws nothing
 */
export function isAnthropicModel(model: unknown): boolean {
  if (typeof model === 'string') return /anthropic|claude/i.test(model);
  if (!isRecord(model)) return false;
  const provider = typeof model['provider'] === 'string' ? model['provider'] : '';
  const modelId = typeof model['modelId'] === 'string' ? model['modelId'] : '';
  return /anthropic/i.test(provider) || /claude/i.test(modelId);
}

/**
 * Resolves the `fixedToolList` option for a step's model.
 *
 * @param option - the option (`'auto'` by default)
 * @param model - the step's model
 * @returns whether loaded tools stay out of the step's tools
 * @throws nothing
 */
export function keepsToolListFixed(option: FixedToolList | undefined, model: unknown): boolean {
  if (option === true || option === false) return option;
  return isAnthropicModel(model);
}
