import { ToolSearchError } from './errors.js';
import { sha256Hex } from './sha256.js';

/** A provider's rules for tool names: the characters it allows and the longest name. */
export interface ToolNameRules {
  /** Matches one allowed character. @defaultValue `/[a-zA-Z0-9_-]/` */
  allowed?: RegExp;
  /** The longest name the provider accepts. */
  maxLength: number;
}

/** OpenAI's rule for function names (Chat Completions and Responses): `^[a-zA-Z0-9_-]{1,64}$`. */
export const OPENAI_TOOL_NAME_RULES: Readonly<ToolNameRules> = Object.freeze({ maxLength: 64 });

/** Anthropic's rule for client tool names (Messages API): `^[a-zA-Z0-9_-]{1,128}$`. */
export const ANTHROPIC_TOOL_NAME_RULES: Readonly<ToolNameRules> = Object.freeze({
  maxLength: 128,
});

/** A reversible map between the session's tool names and the names a provider accepts. */
export interface ToolNameMap {
  /**
   * The provider's name of a tool.
   * @param name - the tool's own name
   * @returns the name to send to the provider
   * @throws `ToolSearchError` `unknown_tool` when the map was not built with this name
   */
  toProvider(name: string): string;
  /**
   * The tool's own name of a name the provider sent (e.g. in a tool call).
   * @param providerName - the name from the provider
   * @returns the tool's own name, or `undefined` when no tool of the map has it
   * @throws nothing
   */
  fromProvider(providerName: string): string | undefined;
}

const DEFAULT_ALLOWED = /[a-zA-Z0-9_-]/;
const HASH_LENGTH = 8;

function shortHash(text: string): string {
  return sha256Hex(text).slice(0, HASH_LENGTH);
}

/**
 * Builds a reversible name map for a provider's name rules. A name that already
 * follows the rules is kept as it is, so a conforming tool list maps to itself.
 * Another name has every disallowed character replaced by `_`; when that name is too
 * long or is taken, it is cut and given `_` and 8 hex digits of the SHA-256 of the
 * original name (again with a counter in the hashed text while the result is still
 * taken). The result depends only on the names and their order, never on the
 * run: the same list always maps to the same names, and no two names map to one.
 *
 * @example
 * ```ts
 * const names = createToolNameMap(tools, OPENAI_TOOL_NAME_RULES);
 * const request = tools.map((tool) => toOpenAITool({ ...tool, name: names.toProvider(tool.name) }));
 * const ownName = names.fromProvider(call.function.name);
 * ```
 *
 * @param tools - the tools (or their names); a repeated name is mapped once
 * @param rules - the provider's rules, e.g. {@link OPENAI_TOOL_NAME_RULES}
 * @returns the {@link ToolNameMap}
 * @throws `ToolSearchError` `invalid_argument` when `rules.maxLength` is below 10 (no room for a hash suffix)
 */
export function createToolNameMap(
  tools: Iterable<string | { name: string }>,
  rules: ToolNameRules,
): ToolNameMap {
  const { maxLength } = rules;
  if (!Number.isInteger(maxLength) || maxLength < HASH_LENGTH + 2) {
    throw new ToolSearchError(
      'invalid_argument',
      `createToolNameMap needs rules.maxLength of at least ${HASH_LENGTH + 2}, got ${String(maxLength)}.`,
    );
  }
  const allowed = rules.allowed ?? DEFAULT_ALLOWED;
  const allowedOne = new RegExp(allowed.source, allowed.flags.replace(/[gy]/g, ''));
  const conforms = (name: string) =>
    name.length >= 1 && name.length <= maxLength && [...name].every((c) => allowedOne.test(c));

  const names: string[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = typeof tool === 'string' ? tool : tool.name;
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  }

  const toProvider = new Map<string, string>();
  const fromProvider = new Map<string, string>();
  const assign = (name: string, providerName: string) => {
    toProvider.set(name, providerName);
    fromProvider.set(providerName, name);
  };
  // Conforming names are reserved first, so a renamed tool can never take one of them.
  for (const name of names) if (conforms(name)) assign(name, name);
  for (const name of names) {
    if (toProvider.has(name)) continue;
    const cleaned = [...name].map((c) => (allowedOne.test(c) ? c : '_')).join('') || 'tool';
    if (cleaned.length <= maxLength && !fromProvider.has(cleaned)) {
      assign(name, cleaned);
      continue;
    }
    const head = cleaned.slice(0, maxLength - HASH_LENGTH - 1);
    let candidate = `${head}_${shortHash(name)}`;
    for (let attempt = 2; fromProvider.has(candidate); attempt += 1) {
      candidate = `${head}_${shortHash(`${name}#${attempt}`)}`;
    }
    assign(name, candidate);
  }

  return {
    toProvider(name) {
      const providerName = toProvider.get(name);
      if (providerName === undefined) {
        throw new ToolSearchError(
          'unknown_tool',
          `Tool '${name}' is not in this name map. Build the map with every tool you send.`,
          { data: { tool: name } },
        );
      }
      return providerName;
    },
    fromProvider(providerName) {
      return fromProvider.get(providerName);
    },
  };
}
