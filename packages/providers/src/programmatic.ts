import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { declaresReadOnly, isRecord } from '@tool-search/core/internal';

/**
 * Which tools a platform program may call: `createProgramPolicy()` of `@tool-search/code`
 * is one (its `allows(tool)`), and so is any object with that method. Give the same object
 * to the preparation (it sets `allowed_callers`) and to the dispatcher's `guardrails` (it
 * refuses a nested call of any other tool), so both say the same thing.
 */
export interface ProgramCallerPolicy {
  /** Whether a program may call this tool. */
  allows(tool: ToolDefinition): boolean;
}

/** The `programmatic` option of every `prepare*` function. */
export interface ProgrammaticOptions {
  /**
   * Which tools programs may call. @defaultValue the read-only ones
   * (`annotations.readOnlyHint: true` without `destructiveHint: true`), as
   * `createProgramPolicy()` decides by default
   */
  policy?: ProgramCallerPolicy;
  /**
   * Whether the model may still call those tools directly too (`allowed_callers` holds
   * both). With `false`, they are callable only from a program. @defaultValue true
   */
  direct?: boolean;
}

/** What a preparation with `programmatic` says about programs. */
export interface PreparedProgrammatic {
  /** The session's names of the tools sent as callable from a program. */
  readonly tools: readonly string[];
  /** Whether those tools stay callable directly too. */
  readonly direct: boolean;
  /**
   * The caller type the platform uses for a program: Anthropic's code execution tool
   * (`code_execution_20260120`), or OpenAI's `programmatic`.
   */
  readonly caller: string;
}

/**
 * The context a routed call is dispatched with, the fields of `ToolCallContext` of
 * `@tool-search/hooks`: `via: 'program'` and the program's id for a nested call.
 */
export interface ProviderCallContext {
  /**
   * How the call came: by the model itself (`'direct'`), from a platform program, or
   * unwrapped from the bridge's `tool_call` (`'bridge'`, Gemini's bridge mode).
   */
  via: 'direct' | 'program' | 'bridge';
  /** The program's id (Anthropic: the code execution call's id; OpenAI: the program item's `call_id`). */
  programId?: string;
  /** The session, passed through from the caller's context. */
  sessionId?: string;
  /** Cancels the call, passed through from the caller's context. */
  signal?: AbortSignal;
}

/**
 * A dispatcher, such as `createDispatcher(...)` of `@tool-search/hooks`: runs a call through
 * guardrails, hooks, approvals and audit and answers its outcome.
 */
export type ProviderDispatch = (call: ToolCall, context: ProviderCallContext) => unknown;

/** The extra context a routing helper passes on to the dispatcher. */
export type ProviderDispatchContext = Pick<ProviderCallContext, 'sessionId' | 'signal'>;

/** Where a refused nested call is written, e.g. the `createAuditHook()` of `@tool-search/hooks`. */
export interface ProgramRefusalSink {
  /**
   * Records a call refused before dispatch.
   * @param refusal - the refused name, the reason, the route and who refused it
   */
  recordRefusal(refusal: {
    tool: string;
    reason: string;
    via: 'direct' | 'program';
    refusedBy: string;
    callId?: string;
    sessionId?: string;
  }): unknown;
}

/** Options of the `dispatch…` helpers of each provider. */
export interface ProgramDispatchOptions {
  /** The loop's program state, to check that a nested call's program was seen. */
  state?: { knows(programId: string): boolean };
  /** Passed on to the dispatcher: the session and the abort signal. */
  context?: ProviderDispatchContext;
  /** Where a refusal before dispatch is recorded (`createAuditHook()` of `@tool-search/hooks`). */
  audit?: ProgramRefusalSink;
}

/** How one tool call of a response is to be answered. */
export type RoutedToolCall =
  | {
      ok: true;
      /** The call in the session's names, arguments as the tool takes them. */
      call: ToolCall;
      /** The context to dispatch it with. */
      context: ProviderCallContext;
    }
  | {
      ok: false;
      /** The refusal the model (or its program) reads as an error result; nothing ran. */
      reason: string;
      /** The name as the response gave it. */
      name: string;
      /** How the call claimed to come: `'program'` for any caller that is not direct. */
      via: 'direct' | 'program';
      /** The program id, when the call claimed one. */
      programId?: string;
    };

const DEFAULT_POLICY: ProgramCallerPolicy = { allows: declaresReadOnly };

/** A preparation's programmatic calling, settled: who may call what. */
export interface SettledProgrammatic {
  /**
   * The `allowed_callers` of a tool sent under this session name: the program caller
   * (and `direct`, unless the option said otherwise) for a tool the policy allows;
   * `undefined` (the platform's default, direct only) for any other.
   */
  callersOf(name: string): string[] | undefined;
  /**
   * What the preparation reports, for the tools actually sent.
   * @param sent - the session's names of the tools of the request (and those kept back for a search)
   */
  report(sent: Iterable<string>): PreparedProgrammatic;
}

/**
 * Reads the `programmatic` option once per preparation: which of the request's real tools
 * programs may call (the policy's answer; read-only tools by default) and with which
 * `allowed_callers`.
 *
 * @param tools - the real tools of the request (never the bridge or search tools)
 * @param option - the option as given
 * @param caller - the platform's program caller (`code_execution_20260120`, `programmatic`)
 * @returns the settled option, or `undefined` when programmatic calling is off
 * @throws `ToolSearchError` `invalid_argument` when the option is not an object, `true` or `false`, or its policy has no `allows` function
 */
export function settleProgrammatic(
  tools: readonly ToolDefinition[],
  option: ProgrammaticOptions | boolean | undefined,
  caller: string,
): SettledProgrammatic | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && !isRecord(option)) {
    throw new ToolSearchError(
      'invalid_argument',
      'programmatic must be true, false or { policy?, direct? }.',
      { data: { field: 'programmatic' } },
    );
  }
  const settings: ProgrammaticOptions = option === true ? {} : option;
  const policy: unknown = settings.policy ?? DEFAULT_POLICY;
  if (!isRecord(policy) || typeof policy['allows'] !== 'function') {
    throw new ToolSearchError(
      'invalid_argument',
      'programmatic.policy needs an allows(tool) function: pass createProgramPolicy() of @tool-search/code.',
      { data: { field: 'programmatic.policy' } },
    );
  }
  const direct = settings.direct !== false;
  const callable = programCallableNames(tools, policy as unknown as ProgramCallerPolicy);
  const all: PreparedProgrammatic = { tools: [...callable], direct, caller };
  return {
    callersOf: (name) => preparedCallers(all, name),
    report: (sent) => ({
      tools: [...new Set(sent)].filter((name) => callable.has(name)),
      direct,
      caller,
    }),
  };
}

/**
 * The `allowed_callers` of one tool of a preparation: the program caller (and `direct`,
 * unless the preparation said otherwise) for a tool offered to programs, else `undefined`.
 *
 * @param programmatic - the preparation's `programmatic`
 * @param name - the session's name of the tool
 * @returns the callers, or `undefined` (direct only, the platform's default)
 * @throws nothing
 */
export function preparedCallers(
  programmatic: PreparedProgrammatic | undefined,
  name: string,
): string[] | undefined {
  if (programmatic === undefined || !programmatic.tools.includes(name)) return undefined;
  return programmatic.direct ? ['direct', programmatic.caller] : [programmatic.caller];
}

/**
 * The tools a program may call, by session name: those of `tools` the policy allows. A
 * policy that throws for a tool fails closed for that tool.
 *
 * @param tools - the real tools of the request (never bridge or search tools)
 * @param policy - the program policy
 * @returns the names
 * @throws nothing
 */
export function programCallableNames(
  tools: readonly ToolDefinition[],
  policy: ProgramCallerPolicy,
): Set<string> {
  const names = new Set<string>();
  for (const tool of tools) {
    let allowed = false;
    try {
      allowed = policy.allows(tool) === true;
    } catch {
      allowed = false;
    }
    if (allowed) names.add(tool.name);
  }
  return names;
}

/**
 * Why a nested call of this tool is refused before dispatch, or `undefined` when the
 * preparation offered it to programs. A call that claims a program for a tool the request
 * never made program-callable is a forged or stale one: `allowed_callers` is no security
 * boundary, so it is checked here too, and the dispatcher's policy checks again.
 *
 * @param programmatic - the preparation's `programmatic`
 * @param name - the session's name of the tool
 * @returns the refusal text, or `undefined`
 * @throws nothing
 */
export function programRefusal(
  programmatic: PreparedProgrammatic | undefined,
  name: string,
): string | undefined {
  const shown = shownName(name);
  if (programmatic === undefined) {
    return `'${shown}' was called from a program, but programmatic tool calling is not enabled for this request. Call it directly.`;
  }
  if (!programmatic.tools.includes(name)) {
    return `programs may not call '${shown}': it was not offered to programs in this request (allowed_callers). Call it directly instead.`;
  }
  return undefined;
}

/**
 * Records a refusal to the sink, if any; a sink that fails never changes the refusal.
 *
 * @param sink - the sink
 * @param refusal - what to record
 * @returns when written
 * @throws nothing
 */
async function recordProgramRefusal(
  sink: ProgramRefusalSink | undefined,
  refusal: Parameters<ProgramRefusalSink['recordRefusal']>[0],
): Promise<void> {
  if (sink === undefined) return;
  try {
    await sink.recordRefusal(refusal);
  } catch {
    // An audit sink that fails never changes the refusal.
  }
}

/**
 * Records a routed call's refusal to the sink, if any, and gives the outcome the model
 * reads for it: a denial (`Denied: …`) in the shape of a dispatcher outcome.
 *
 * @param sink - the audit sink, if any
 * @param routed - the refusal
 * @param callId - the provider's call id
 * @param context - the dispatch context (its session goes into the record)
 * @returns the denied outcome to render
 * @throws nothing
 */
export async function refuseRouted(
  sink: ProgramRefusalSink | undefined,
  routed: Extract<RoutedToolCall, { ok: false }>,
  callId: string,
  context: ProviderDispatchContext | undefined,
): Promise<{ status: 'denied'; reason: string; call: { name: string } }> {
  await recordProgramRefusal(sink, {
    tool: routed.name,
    reason: routed.reason,
    via: routed.via,
    refusedBy: 'allowed-callers',
    callId,
    ...(context?.sessionId === undefined ? {} : { sessionId: context.sessionId }),
  });
  return { status: 'denied', reason: routed.reason, call: { name: routed.name } };
}

/** The longest tool name a refusal echoes back. */
const ECHO_LIMIT = 128;

/**
 * A name from a response as it may be echoed in a refusal: a string cut to 128
 * characters, anything else described by its type.
 *
 * @param name - the name as the response gave it
 * @returns the text
 * @throws nothing
 */
export function shownName(name: unknown): string {
  if (typeof name !== 'string') return `(a ${name === null ? 'null' : typeof name} name)`;
  return name.length > ECHO_LIMIT ? `${name.slice(0, ECHO_LIMIT)}…` : name;
}
