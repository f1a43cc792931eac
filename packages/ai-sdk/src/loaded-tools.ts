import { TOOL_DESCRIBE } from '@tool-search/bridge';
import { isRecord } from '@tool-search/core/internal';

// A tool result's output as the AI SDK records it: `{ type: 'json', value }` (or a
// raw value in a hand-written history).
function outputValue(output: unknown): unknown {
  if (isRecord(output) && output['type'] === 'json' && 'value' in output) return output['value'];
  return output;
}

/**
 * The tools the model loaded in this conversation: every successful `tool_describe`
 * answer in the messages (a tool result with the tool's `name` and `parameters`). It is
 * read from the conversation, not kept per session, so a resumed or forked conversation
 * loads what it holds.
 *
 * @param messages - the conversation, as the AI SDK hands it to `prepareStep`
 * @returns the loaded names, in the order they were loaded
 * @throws nothing
 */
export function loadedToolNames(messages: readonly unknown[] | undefined): string[] {
  const names = new Set<string>();
  for (const message of messages ?? []) {
    if (!isRecord(message) || message['role'] !== 'tool' || !Array.isArray(message['content'])) {
      continue;
    }
    for (const part of message['content'] as unknown[]) {
      if (!isRecord(part) || part['type'] !== 'tool-result' || part['toolName'] !== TOOL_DESCRIBE) {
        continue;
      }
      const value = outputValue(part['output']);
      if (isRecord(value) && typeof value['name'] === 'string' && isRecord(value['parameters'])) {
        names.add(value['name']);
      }
    }
  }
  return [...names];
}
