import type { JsonSchemaObject, ToolCall, ToolDefinition } from '@tool-search/core';
import {
  describeError,
  isBridgeToolName,
  isRecord,
  ownValue,
  TOOL_CALL,
} from '@tool-search/core/internal';
import type { ArgumentRepair, ArgumentViolation, SkippedKeyword } from '@tool-search/core/validate';
import type { Assembly } from './assemble.js';
import { checkDeferredArguments } from './check-arguments.js';
import type { BridgeErrorCode } from './errors.js';

/**
 * A call as a model or a provider SDK hands it over: `arguments` may be an object,
 * a JSON string (OpenAI), `null` or absent. Every bridge function also copes with
 * values that do not fit this type (untrusted input never makes them throw).
 */
export interface IncomingToolCall {
  /** The provider's call id, kept on the resolved call. */
  id?: string;
  /** The called tool's name. */
  name: string;
  /** The arguments: an object, a JSON string, `null` or absent. */
  arguments?: unknown;
}

/** A refused call: the model-facing `error` text, its `code` and, where useful, more data. */
export interface ResolveFailure {
  ok: false;
  /** The text the model sees, byte for byte as `docs/guides/errors.md` lists it. */
  error: string;
  /** Why, as the error's code from the bridge's closed list (`BRIDGE_ERROR_CODES`). */
  code: BridgeErrorCode;
  /** The resolved tool name, when the failure is about a known tool. */
  name?: string;
  /** With `missing-required-arguments` and `invalid-arguments`: the tool's full schema. */
  parameters?: JsonSchemaObject;
  /** The top-level required argument names that were missing, when any were. */
  missing?: string[];
  /**
   * With `missing-required-arguments` and `invalid-arguments`: how the arguments break
   * the schema, each with its `path` (`arguments.options.count`) and `constraint`
   * (`type`, `enum`, `required`, `additionalProperties`, ...); at most 50.
   */
  violations?: ArgumentViolation[];
}

/** A resolved call: the real tool and its arguments object. */
export interface ResolveSuccess {
  ok: true;
  /** The real call: the deferred tool's name, an arguments object, the outer call's id. */
  call: ToolCall;
  /** The deferred tool's definition. */
  tool: ToolDefinition;
  /** What was repaired before dispatch (`"42"` to `42` for an integer), when anything was. */
  repairs?: ArgumentRepair[];
  /**
   * Set when the tool's schema could not be checked (malformed, an external `$ref`):
   * why. The call goes out with its arguments untouched (fail open).
   */
  unchecked?: string;
  /**
   * The keywords of the tool's schema left unchecked for this call, when any were: a
   * pattern the linear engine cannot run, a keyword whose check would overrun its
   * budget. Everything else was checked.
   */
  skipped?: SkippedKeyword[];
}

/** The result of {@link resolveUnderlyingCall}. */
export type ResolveResult = ResolveSuccess | ResolveFailure;

const MAX_ECHOED_NAME = 200;

/**
 * A model- or client-supplied name as it may be echoed back in an error text or
 * answer: names up to 200 characters whole, a longer one (a client may send a 1 MB
 * name) cut to its first 200 characters and the marker `…(N more characters)`.
 *
 * @param name - the name as received
 * @returns the name, cut when long
 * @throws nothing
 */
export function echoName(name: string): string {
  return name.length > MAX_ECHOED_NAME
    ? `${name.slice(0, MAX_ECHOED_NAME)}…(${name.length - MAX_ECHOED_NAME} more characters)`
    : name;
}

/**
 * The arguments rule: `null`, absent, `""` or whitespace mean `{}`; a string is
 * parsed as JSON; the result must be an object.
 */
export function parseArguments(
  raw: unknown,
):
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; reason: 'invalid-json' | 'not-an-object'; detail?: string } {
  let value = raw;
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value === 'string') {
    if (value.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(value);
    } catch (error) {
      return { ok: false, reason: 'invalid-json', detail: describeError(error) };
    }
  }
  if (!isRecord(value)) return { ok: false, reason: 'not-an-object' };
  return { ok: true, value };
}

// The error text lists the first ten violations; `violations` carries up to 50.
const MAX_LISTED_VIOLATIONS = 10;

/**
 * The texts of the bridge's single-call refusals, one place; each is listed with its code
 * in `docs/guides/errors.md`, the contract the texts keep byte for byte.
 */
export const bridgeErrors = {
  queryRequired: 'query is required',
  nameRequired: 'name is required',
  notDeferrable: (name: string) =>
    `'${echoName(name)}' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.`,
  notCurrentlyAvailable: (name: string) =>
    `'${echoName(name)}' is not currently available. Re-run tool_search to refresh.`,
  notInSession: (name: string) =>
    `'${echoName(name)}' is not available in this session. Use tool_search to find tools you can call.`,
  callNameRequired: "tool_call requires a 'name' argument",
  bridgeTool: (name: string) =>
    `tool_call cannot invoke '${echoName(name)}' (it is itself a bridge tool)`,
  invalidJson: (detail: string) => `tool_call 'arguments' is not valid JSON: ${detail}`,
  notAnObject: "tool_call 'arguments' must be an object",
  missingRequired: (name: string, missing: readonly string[]) => {
    const plural = missing.length === 1 ? '' : 's';
    const keys = missing.map((key) => `'${echoName(key)}'`).join(', ');
    return `'${echoName(name)}' was not invoked: missing required argument${plural} ${keys}. Its full schema is in 'parameters'; call it again with every required argument.`;
  },
  invalidArguments: (name: string, violations: readonly ArgumentViolation[], total: number) => {
    const listed = violations
      .slice(0, MAX_LISTED_VIOLATIONS)
      .map(
        (violation) =>
          `${echoName(violation.path)} (${violation.constraint}): ${violation.message}`,
      )
      .join('; ');
    const shown = Math.min(violations.length, MAX_LISTED_VIOLATIONS);
    const more = total > shown ? ` (and ${total - shown} more)` : '';
    return `'${echoName(name)}' was not invoked: its arguments do not match its schema: ${listed}${more}. Its full schema is in 'parameters'; fix what 'violations' names and call it again.`;
  },
} as const;

/** How a name stands in an assembly. */
export type NameStatus = 'deferred' | 'visible' | 'known' | 'unknown';

/**
 * Where a name stands in an assembly: behind the bridge, visible to the model,
 * held by the session earlier but gone now, or never in this session.
 */
export function nameStatus(assembly: Assembly, name: string): NameStatus {
  if (assembly.catalog.has(name)) return 'deferred';
  if (Array.isArray(assembly.tools) && assembly.tools.some((tool) => tool?.name === name)) {
    return 'visible';
  }
  if (assembly.knownNames.has(name)) return 'known';
  return 'unknown';
}

/** The error text and code for a name that is not behind the bridge. */
export function nameError(
  status: Exclude<NameStatus, 'deferred'>,
  name: string,
): { error: string; code: BridgeErrorCode } {
  if (status === 'visible') {
    return { error: bridgeErrors.notDeferrable(name), code: 'not_deferrable' };
  }
  if (status === 'known') {
    return { error: bridgeErrors.notCurrentlyAvailable(name), code: 'not_currently_available' };
  }
  return { error: bridgeErrors.notInSession(name), code: 'not_in_session' };
}

function fail(
  error: string,
  code: BridgeErrorCode,
  extra: Partial<ResolveFailure> = {},
): ResolveFailure {
  return { ok: false, error, code, ...extra };
}

/**
 * Turns a call into the real call of a deferred tool, with the checks and error
 * texts of `docs/guides/errors.md`. Takes either a `tool_call` call (`{ name: 'tool_call',
 * arguments: { name, arguments } }`) or a direct call of a deferred tool by its
 * own name; both go through the same checks, in this order:
 *
 * 1. a missing or blank name → `tool_call requires a 'name' argument`;
 * 2. a bridge name → `tool_call cannot invoke '<name>' (it is itself a bridge tool)`;
 * 3. a visible (core, pinned, unknown-source) tool → `'<name>' is not a deferrable tool. …`;
 *    a tool this session held earlier but not now → `'<name>' is not currently available. …`;
 *    any other name outside the catalog → `'<name>' is not available in this session. …`;
 * 4. `arguments`: `null`, absent, `""` or whitespace → `{}`; a string is parsed as JSON
 *    (`tool_call 'arguments' is not valid JSON: <detail>`); anything but an object →
 *    `tool_call 'arguments' must be an object`;
 * 5. the arguments checked against the tool's schema (`validateArguments` of
 *    `@tool-search/core/validate`; arguments over the assembly's `maxArgumentBytes`, 1 MiB
 *    by default, are refused before the schema is looked at, and a keyword that cannot run
 *    or would overrun the check's budget is left unchecked and listed in `skipped`),
 *    after repairing what is unambiguous (`"42"` for an integer, `""` or `"{}"` for an
 *    object that requires no field): a call that still
 *    breaks it is not invoked, and the failure carries the tool's schema in
 *    `parameters` and the `violations`, each with its `path` and `constraint`. Missing
 *    top-level required arguments alone keep the design text (`missing-required-arguments`,
 *    with the `missing` names); anything else is `invalid-arguments`. A schema that cannot
 *    be checked (malformed, an external `$ref`) fails open: the call is resolved with its
 *    arguments untouched and `unchecked` says why (only its top-level `required` still holds).
 *
 * @example
 * ```ts
 * const resolved = resolveUnderlyingCall(assembly, {
 *   name: 'tool_call',
 *   arguments: { name: 'github_create_issue', arguments: '{"title":"Bug"}' },
 * });
 * if (resolved.ok) await dispatch(resolved.call); // { name: 'github_create_issue', arguments: { title: 'Bug' } }
 * ```
 *
 * @param assembly - the session's current assembly
 * @param call - the model's call; any value is tolerated
 * @returns `{ ok: true, call, tool }` or `{ ok: false, error, code, ... }`
 * @throws nothing
 */
export function resolveUnderlyingCall(assembly: Assembly, call: IncomingToolCall): ResolveResult {
  return resolveCall(assembly, call, false);
}

/**
 * {@link resolveUnderlyingCall}, which with `allowVisible` also resolves a `tool_call` of a
 * tool in the model's list (through the same argument checks) instead of refusing it.
 *
 * @internal
 */
export function resolveCall(
  assembly: Assembly,
  call: IncomingToolCall,
  allowVisible: boolean,
): ResolveResult {
  const outerName = ownValue(call, 'name');
  let name: unknown;
  let rawArguments: unknown;
  if (outerName === TOOL_CALL) {
    const outer = parseArguments(ownValue(call, 'arguments'));
    if (!outer.ok) {
      return outer.reason === 'invalid-json'
        ? fail(bridgeErrors.invalidJson(outer.detail ?? 'unknown error'), 'invalid_json')
        : fail(bridgeErrors.notAnObject, 'arguments_not_object');
    }
    name = ownValue(outer.value, 'name');
    rawArguments = ownValue(outer.value, 'arguments');
  } else {
    name = outerName;
    rawArguments = ownValue(call, 'arguments');
  }

  if (typeof name !== 'string' || name.trim() === '') {
    return fail(bridgeErrors.callNameRequired, 'name_required');
  }
  const toolName = name.trim();
  if (isBridgeToolName(toolName)) {
    return fail(bridgeErrors.bridgeTool(toolName), 'bridge_tool', { name: toolName });
  }

  const status = nameStatus(assembly, toolName);
  const tool =
    status === 'deferred'
      ? assembly.catalog.get(toolName)
      : status === 'visible' && allowVisible
        ? assembly.tools.find((entry) => entry?.name === toolName)
        : undefined;
  if (tool === undefined) {
    const { error, code } = nameError(status as Exclude<NameStatus, 'deferred'>, toolName);
    return fail(error, code, { name: toolName });
  }

  const parsed = parseArguments(rawArguments);
  if (!parsed.ok) {
    return parsed.reason === 'invalid-json'
      ? fail(bridgeErrors.invalidJson(parsed.detail ?? 'unknown error'), 'invalid_json', {
          name: toolName,
        })
      : fail(bridgeErrors.notAnObject, 'arguments_not_object', { name: toolName });
  }

  const checked = checkDeferredArguments(tool.inputSchema, parsed.value, {
    tool: toolName,
    ...(assembly.maxArgumentBytes === undefined
      ? {}
      : { maxArgumentBytes: assembly.maxArgumentBytes }),
    ...(assembly.onSkippedKeyword === undefined
      ? {}
      : { onSkippedKeyword: assembly.onSkippedKeyword }),
  });
  if (!checked.ok) {
    const { missing, violations, total } = checked;
    const onlyMissing = missing.length > 0 && missing.length === total;
    return fail(
      onlyMissing
        ? bridgeErrors.missingRequired(toolName, missing)
        : bridgeErrors.invalidArguments(toolName, violations, total),
      onlyMissing ? 'missing_arguments' : 'invalid_arguments',
      {
        name: toolName,
        parameters: tool.inputSchema,
        ...(missing.length > 0 ? { missing } : {}),
        violations,
      },
    );
  }

  const realCall: ToolCall = { name: toolName, arguments: checked.arguments };
  const id = ownValue(call, 'id');
  if (typeof id === 'string') realCall.id = id;
  const resolved: ResolveSuccess = { ok: true, call: realCall, tool };
  if (checked.repairs.length > 0) resolved.repairs = checked.repairs;
  if (checked.unchecked !== undefined) resolved.unchecked = checked.unchecked;
  if (checked.skipped) resolved.skipped = checked.skipped;
  return resolved;
}
