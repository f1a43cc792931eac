import { isRecord } from '@tool-search/core/internal';

const TOOL_CHANGES_BETA = 'mid-conversation-tool-changes-2026-07-01';
const INLINE_TOOLS_BETA = 'inline-tools-2026-09-15';
const REMOVED_PARAMETERS = ['temperature', 'top_p', 'top_k'] as const;

/** The error codes the Anthropic stand-in answers with, in `error.details.error_code`. */
export type AnthropicStandInErrorCode = 'tool_name_conflict' | 'tool_reference_unresolved';

/** A violation that carries one of Anthropic's error codes: `<code>: <text>`. */
export function coded(code: AnthropicStandInErrorCode, text: string): string {
  return `${code}: ${text}`;
}

/**
 * What API version 2026-10-21 refuses in any request: the sampling parameters it removed.
 * @param body - the request body
 * @returns the problems
 */
export function removedParameterProblems(body: Record<string, unknown>): string[] {
  return REMOVED_PARAMETERS.filter((key) => body[key] !== undefined).map(
    (key) => `${key}: removed in API version 2026-10-21`,
  );
}

/** The betas a request turned on (`anthropic-beta`, comma-separated). */
export function betasOf(headers: Record<string, string | string[] | undefined>): Set<string> {
  const raw = headers['anthropic-beta'];
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return new Set(
    text
      .split(',')
      .map((beta) => beta.trim())
      .filter(Boolean),
  );
}

/** The conversation's tools at one point of `messages`, as tool changes move them. */
export interface ToolState {
  loaded: Set<string>;
  custom: Map<string, Record<string, unknown>>;
  /** Every name defined so far (sent in `tools` or added), loaded or not. */
  defined: Set<string>;
}

/**
 * Applies a `tool_addition` or `tool_removal` block as the API does: the beta must be on
 * (`inline-tools-2026-09-15` for a `tool_definition`), an added name must not be held by
 * another tool (`tool_name_conflict`), a reference must name a tool defined at that point
 * (`tool_reference_unresolved`).
 *
 * @param block - a content block of a message
 * @param where - the message's place, for the problems
 * @param state - the tools at this point, updated in place
 * @param betas - the request's betas
 * @returns the problems
 */
export function applyToolChange(
  block: Record<string, unknown>,
  where: string,
  state: ToolState,
  betas: ReadonlySet<string>,
): string[] {
  const type = block['type'];
  if (type !== 'tool_addition' && type !== 'tool_removal') return [];
  if (!betas.has(TOOL_CHANGES_BETA))
    return [`${where}: ${String(type)} needs the ${TOOL_CHANGES_BETA} beta`];
  const tool = isRecord(block['tool']) ? block['tool'] : {};
  if (tool['type'] === 'tool_definition') {
    if (type === 'tool_removal') return [`${where}: a tool_removal takes a reference`];
    if (!betas.has(INLINE_TOOLS_BETA))
      return [`${where}: tool_definition needs the ${INLINE_TOOLS_BETA} beta`];
    const definition = isRecord(tool['definition']) ? tool['definition'] : {};
    const name = String(definition['name']);
    if (state.defined.has(name)) {
      return [
        coded('tool_name_conflict', `${where}: '${name}' is already a tool of this conversation`),
      ];
    }
    state.defined.add(name);
    state.custom.set(name, definition);
    state.loaded.add(name);
    return [];
  }
  const name = String(tool['name']);
  if (tool['type'] !== 'tool_reference' || !state.defined.has(name)) {
    return [coded('tool_reference_unresolved', `${where}: '${name}' is not defined at this point`)];
  }
  if (type === 'tool_addition') state.loaded.add(name);
  else state.loaded.delete(name);
  return [];
}

interface Snapshot {
  tools: string;
  system: string;
  messages: string[];
}

/**
 * Preserved thinking, as the docs describe it (5.x models, accounts since 2026-08-31): a
 * thinking block binds what came before it. A later request that carries the block back
 * must send the same `tools`, the same `system` and the same earlier messages, or it is
 * refused. Each response's thinking block is remembered with the request that produced it.
 */
export function createThinkingLedger() {
  const snapshots = new Map<string, Snapshot>();
  let count = 0;
  return {
    /** Whether a request asked for thinking. */
    wants(body: Record<string, unknown>): boolean {
      const thinking = body['thinking'];
      return (
        isRecord(thinking) && (thinking['type'] === 'enabled' || thinking['type'] === 'adaptive')
      );
    },
    /** A new thinking block for the response to `body`, remembered with it. */
    block(body: Record<string, unknown>) {
      const signature = `sig_${++count}`;
      snapshots.set(signature, {
        tools: JSON.stringify(body['tools'] ?? null),
        system: JSON.stringify(body['system'] ?? null),
        messages: (Array.isArray(body['messages']) ? body['messages'] : []).map((m) =>
          JSON.stringify(m),
        ),
      });
      return { type: 'thinking', thinking: `Thinking ${count}.`, signature };
    },
    /** What breaks the prefix of any thinking block this request carries back. */
    problems(body: Record<string, unknown>): string[] {
      const messages = Array.isArray(body['messages']) ? body['messages'] : [];
      const problems: string[] = [];
      messages.forEach((message, index) => {
        const content =
          isRecord(message) && Array.isArray(message['content']) ? message['content'] : [];
        for (const block of content) {
          if (!isRecord(block) || block['type'] !== 'thinking') continue;
          const snapshot = snapshots.get(String(block['signature']));
          if (snapshot === undefined) {
            problems.push(`messages[${index}]: a thinking block with an unknown signature`);
            continue;
          }
          if (JSON.stringify(body['tools'] ?? null) !== snapshot.tools) {
            problems.push(`messages[${index}]: tools changed after this thinking block`);
          }
          if (JSON.stringify(body['system'] ?? null) !== snapshot.system) {
            problems.push(`messages[${index}]: system changed after this thinking block`);
          }
          const before = messages.slice(0, snapshot.messages.length).map((m) => JSON.stringify(m));
          if (
            before.join('\n') !== snapshot.messages.join('\n') ||
            index !== snapshot.messages.length
          ) {
            problems.push(
              `messages[${index}]: an earlier message changed after this thinking block`,
            );
          }
        }
      });
      return problems;
    },
  };
}
