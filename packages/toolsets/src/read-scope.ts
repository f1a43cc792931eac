import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { ToolsetRegistry } from './toolset-registry.js';

/** A scope as read from untrusted input. Internal. */
export interface ReadScope {
  /** False when the input cannot be read safely: such a scope admits no tool. */
  ok: boolean;
  /** The enabled names, each once; `undefined` when the scope does not restrict. */
  enabled: string[] | undefined;
  /** The disabled names, each once. */
  disabled: string[];
  /** Why `ok` is false, for reports. */
  problems: string[];
}

function readList(
  value: unknown,
  field: string,
  problems: string[],
): { names: string[]; clean: boolean } {
  if (!Array.isArray(value)) {
    problems.push(`${field} must be an array of toolset names, got ${describeError(value)}`);
    return { names: [], clean: false };
  }
  const names: string[] = [];
  const seen = new Set<string>();
  let clean = true;
  for (const entry of value) {
    if (typeof entry !== 'string') {
      problems.push(`${field} holds ${describeError(entry)}, which is not a toolset name`);
      clean = false;
      continue;
    }
    if (!seen.has(entry)) {
      seen.add(entry);
      names.push(entry);
    }
  }
  return { names, clean };
}

/**
 * Reads a session scope from any value, failing closed: a scope that is not an
 * object, a field that is neither absent nor an array, or a disabled entry that is
 * not a string makes the whole scope admit nothing (ignoring it could widen the
 * scope). An enabled entry that is not a string is dropped, which only narrows.
 */
export function readScope(value: unknown, label = 'scope'): ReadScope {
  try {
    return readScopeUnguarded(value, label);
  } catch (error) {
    // A proxy or getter that throws while we read: unreadable, so admit nothing.
    return {
      ok: false,
      enabled: [],
      disabled: [],
      problems: [`${label} could not be read: ${describeError(error)}`],
    };
  }
}

function readScopeUnguarded(value: unknown, label: string): ReadScope {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${label} must be an object, got ${describeError(value)}`);
    return { ok: false, enabled: [], disabled: [], problems };
  }
  let ok = true;
  let enabled: string[] | undefined;
  let disabled: string[] = [];
  const rawEnabled = (value as Record<string, unknown>)['enabledToolsets'];
  const rawDisabled = (value as Record<string, unknown>)['disabledToolsets'];
  if (rawEnabled !== undefined) {
    const list = readList(rawEnabled, `${label}.enabledToolsets`, problems);
    enabled = list.names;
    // A non-array is unreadable: restrict to nothing rather than guess.
    if (!Array.isArray(rawEnabled)) ok = false;
  }
  if (rawDisabled !== undefined) {
    const list = readList(rawDisabled, `${label}.disabledToolsets`, problems);
    disabled = list.names;
    if (!list.clean) ok = false;
  }
  return { ok, enabled: ok ? enabled : [], disabled, problems };
}

/** Whether a value implements the members of {@link ToolsetRegistry} that scoping uses. */
export function isRegistryLike(value: unknown): value is ToolsetRegistry {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolsetRegistry).expand === 'function' &&
    typeof (value as ToolsetRegistry).listing === 'function'
  );
}

function badExpansion(name: string, what: string): ToolSearchError {
  return new ToolSearchError(
    'invalid_argument',
    `registry.expand('${name}') ${what}: pass a registry from createToolsetRegistry, or one whose expand returns an array of toolset names.`,
    { data: { toolset: name } },
  );
}

/**
 * Adds each name and its expansion under the registry to `into`.
 * Throws a {@link ToolSearchError} `invalid_argument` (`data.toolset`) when a registry
 * answers with something other than an array of names: callers fail closed.
 */
export function expandInto(
  names: readonly string[],
  registry: ToolsetRegistry | undefined,
  into: Set<string>,
): Set<string> {
  for (const name of names) {
    into.add(name);
    if (registry === undefined) continue;
    const expansion = registry.expand(name);
    if (!Array.isArray(expansion)) throw badExpansion(name, 'is not an array');
    for (const member of expansion) {
      if (typeof member !== 'string') throw badExpansion(name, 'holds a non-string');
      into.add(member);
    }
  }
  return into;
}
