import type { Promisable, ToolCall, ToolDefinition, ToolSearchErrorCode } from '@tool-search/core';

/**
 * What the runtime knows about one call besides its name and arguments.
 *
 * Inside the dispatcher every hook, guardrail and `execute` receives a context whose
 * `via` and `signal` are set (see {@link DispatchContext}).
 */
export interface ToolCallContext {
  /** The session the call belongs to; 'allow-session' approvals are remembered per session. */
  sessionId?: string;
  /** Cancels the call: a waiting guardrail, hook or approval, and the execution. */
  signal?: AbortSignal;
  /**
   * How the call came in: `'bridge'` through `tool_call` (a single call or one item of a
   * batch), `'direct'` by the tool's own name (a listed tool, or a deferred one the
   * bridge routed), `'program'` from inside a `tool_program` program (`@tool-search/code`),
   * `'console'` by an operator trying the tool in the gateway console. Absent means
   * `'direct'`.
   */
  via?: CallRoute;
  /** The id of the program that made the call, when `via` is `'program'`. */
  programId?: string;
  /** The console operator who made the call (e.g. `profile:ops`), when `via` is `'console'`. */
  operator?: string;
  /** The definition of the called tool, when the runtime knows it. */
  tool?: ToolDefinition;
}

/**
 * How a call came in: through the bridge's `tool_call` (`'bridge'`), directly by the
 * tool's own name (`'direct'`), from inside a program run by `tool_program`
 * (`'program'`), or from an operator trying the tool in the gateway console
 * (`'console'`). Every surface passes the same final call to the same dispatcher; this is
 * the one field that tells them apart.
 */
export type CallRoute = 'bridge' | 'direct' | 'program' | 'console';

/**
 * The context the dispatcher hands to guardrails, hooks, approvals and `execute`: the
 * caller's context (its own fields `C` included, e.g. an AI SDK `toolCallId`) with
 * `via` and `signal` always set. The signal aborts when the caller's signal
 * aborts or the step runs out of time.
 */
export type DispatchContext<C extends object = Record<never, never>> = Omit<
  ToolCallContext,
  'via' | 'signal'
> &
  Omit<C, 'via' | 'signal'> & {
    /**
     * How the model made the call. The dispatcher always sets it; it is optional only so
     * that a context built by hand (a test calling a guardrail) need not.
     */
    via?: CallRoute;
    signal: AbortSignal;
  };

/** What a guardrail answers. */
export type GuardrailVerdict = { allow: true } | { allow: false; reason: string };

/**
 * A check that may refuse a call before anything else sees it. Guardrails run in
 * order, before the `beforeCall` hooks, and once more on the final call when a hook
 * rewrote it. The first refusal wins. A guardrail that throws, rejects, answers
 * something other than a {@link GuardrailVerdict} or runs out of time denies the call.
 *
 * @example
 * ```ts
 * const noSecrets: Guardrail = {
 *   name: 'no-secrets',
 *   check: (call) =>
 *     JSON.stringify(call.arguments).includes('BEGIN PRIVATE KEY')
 *       ? { allow: false, reason: 'the arguments contain a private key' }
 *       : { allow: true },
 * };
 * ```
 */
export interface Guardrail<C extends object = Record<never, never>> {
  /** Shown in denials: `denied by guardrail '<name>'`. */
  name: string;
  /**
   * @param call - the call, with the real tool name (never `tool_call`); do not mutate it
   * @param ctx - the dispatch context
   */
  check(call: ToolCall, ctx: DispatchContext<C>): Promisable<GuardrailVerdict>;
}

/** What a `beforeCall` hook may answer: nothing (go on), a rewritten call, or a denial. */
export type BeforeCallOutcome = undefined | { call: ToolCall } | { deny: string };

/** What an `afterCall` hook may answer: nothing (keep the result) or a replacement. */
export type AfterCallOutcome = undefined | { result: unknown };

/**
 * A plugin around dispatch: an object of optional methods, composed in a fixed order.
 *
 * - `beforeCall` runs in registration order after the guardrails. It may rewrite the
 *   call (`{ call }`; later hooks see the rewrite, and the guardrails check the final
 *   call again) or deny it (`{ deny: reason }`). A `beforeCall` that throws, rejects,
 *   answers something unknown or runs out of time denies the call (fail closed).
 * - `afterCall` runs in reverse order after a successful execution and may replace the
 *   result (`{ result }`). One that throws or runs out of time is skipped: the result
 *   is kept and the failure is listed in the dispatch result's `warnings`.
 * - `onError` runs in reverse order when `execute` throws or times out. Its own
 *   failures are listed in `warnings`, never thrown.
 * - `onSettled` runs in reverse order once for every dispatch, whatever happened,
 *   including calls a guardrail denied before any `beforeCall` ran. Audit hooks use it.
 *
 * @example
 * ```ts
 * const redactTokens: ToolCallHook = {
 *   name: 'redact-tokens',
 *   afterCall: (_call, result) =>
 *     typeof result === 'string' ? { result: result.replace(/ghp_\w+/g, '[token]') } : undefined,
 * };
 * ```
 */
export interface ToolCallHook<C extends object = Record<never, never>> {
  /** Shown in denials and warnings. */
  name: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing goes on
  beforeCall?(call: ToolCall, ctx: DispatchContext<C>): Promisable<BeforeCallOutcome | void>;
  afterCall?(
    call: ToolCall,
    result: unknown,
    ctx: DispatchContext<C>,
    // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing keeps the result
  ): Promisable<AfterCallOutcome | void>;
  /** @param error - the value `execute` threw, or a `ToolSearchError` (`tool_timeout`) */
  onError?(call: ToolCall, error: unknown, ctx: DispatchContext<C>): Promisable<void>;
  onSettled?(settled: DispatchSettled, ctx: DispatchContext<C>): Promisable<void>;
}

/** An approval adapter's answer. */
export type ApprovalDecision = 'allow-once' | 'allow-session' | 'deny';

/** An approval adapter's answer with the reason, e.g. why it denied. */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  /** Shown to the model when the decision is 'deny'. */
  reason?: string;
  /**
   * The adapter that decided, when it is not the one the dispatcher asked: an adapter
   * that delegates (e.g. {@link createPolicyApproval} asking its `ask`) names the one it
   * asked, so that a denial reports who really denied.
   */
  decidedBy?: string;
  /**
   * Who answered, when a person did (e.g. the principal of the console operator who
   * clicked): the audit record names them.
   */
  answeredBy?: string;
}

/** When the approval adapter answered, who answered, and how long the call waited for it. */
export interface ApprovalTiming {
  /** How long the call waited for the answer (the human wait, apart from the tool's time). */
  waitMs: number;
  /** When the answer came, in milliseconds since the epoch. */
  answeredAt: number;
  /** Who answered, when the adapter said ({@link ApprovalAnswer.answeredBy}). */
  answeredBy?: string;
}

/** What an approval adapter is asked. */
export interface ApprovalRequest {
  /** The final call (after `beforeCall` rewrites), with the real tool name. */
  call: ToolCall;
  /** The called tool's definition, when known (annotations live here). */
  tool?: ToolDefinition;
  /** Absent when the runtime has no session: 'allow-session' is then not remembered. */
  sessionId?: string;
  /**
   * How the model made the call: through `tool_call`, or by the tool's own name. The
   * dispatcher always sets it; optional only so that a request built by hand need not.
   */
  via?: CallRoute;
  /** Aborts when the call is cancelled or the approval runs out of time: stop asking. */
  signal: AbortSignal;
  /**
   * The caller's context of the call, its own fields included (e.g. the client request a
   * gateway serves), so that an adapter can ask in the right place without global state.
   * The dispatcher always sets it; optional only so that a request built by hand need not.
   */
  context?: Readonly<ToolCallContext & Record<string, unknown>>;
}

/**
 * Decides whether a call may run, e.g. by asking a person. Answers 'allow-once',
 * 'allow-session' (the dispatcher then remembers the tool for this session id) or
 * 'deny', optionally with a reason. An adapter that throws, rejects, answers something
 * else or runs out of time denies the call.
 *
 * @example
 * ```ts
 * const approval: ApprovalAdapter = {
 *   name: 'read-only',
 *   request: async ({ tool }) => (tool?.annotations?.readOnlyHint ? 'allow-once' : 'deny'),
 * };
 * ```
 */
export interface ApprovalAdapter {
  /** Shown in denials. @defaultValue `'approval'` */
  name?: string;
  request(request: ApprovalRequest): Promisable<ApprovalDecision | ApprovalAnswer>;
}

/** Which step denied a call. */
export interface DeniedBy {
  kind: 'guardrail' | 'hook' | 'approval';
  /** The guardrail, hook or approval adapter that denied: the one that decided, not a wrapper. */
  name: string;
  /**
   * The approval adapter the dispatcher asked, when it delegated the decision to the
   * adapter named in `name` (e.g. a policy that asked a callback).
   */
  delegatedBy?: string;
}

/**
 * An error as the model and the logs see it: plain data. The thrown value, when
 * there was one, is kept in `cause`, which is not enumerable and so stays out of JSON.
 */
export interface DispatchError {
  /**
   * `tool_failed`, `tool_timeout`, `tool_lookup_failed`, `invalid_argument`,
   * `dispatch_failed`, or the code of a thrown `ToolSearchError`; see
   * `TOOL_SEARCH_ERROR_CODES` in `@tool-search/core`.
   */
  code: ToolSearchErrorCode;
  message: string;
  readonly cause?: unknown;
}

/**
 * What happened to one call, in a shape a model can read (plain JSON):
 *
 * - `ok`: the tool ran; `result` is its result after the `afterCall` hooks;
 * - `denied`: a guardrail, a `beforeCall` hook or the approval refused it; `by` says
 *   which and `reason` why. The tool did not run;
 * - `error`: the tool ran and failed (threw or timed out), or the call was malformed;
 * - `cancelled`: the caller's `AbortSignal` fired before the call settled.
 *
 * `call` is the final call (after `beforeCall` rewrites). `warnings` lists hooks
 * that failed after the decision (their failure never changes the outcome).
 */
export type DispatchResult =
  | { status: 'ok'; call: ToolCall; result: unknown; warnings?: string[] }
  | { status: 'denied'; call: ToolCall; by: DeniedBy; reason: string; warnings?: string[] }
  | { status: 'error'; call: ToolCall; error: DispatchError; warnings?: string[] }
  | { status: 'cancelled'; call: ToolCall; reason: string; warnings?: string[] };

/** How the approval step went: an adapter's answer, a remembered session approval, or skipped. */
export type ApprovalOutcome = ApprovalDecision | 'remembered';

/** What `onSettled` hooks receive: the outcome of one dispatch and how it went. */
export interface DispatchSettled {
  /** The call as the dispatcher received it, before any rewrite. */
  requestedCall: ToolCall;
  /** The final result (without the `warnings` of `onSettled` hooks themselves). */
  result: DispatchResult;
  /** Whether `execute` was started (the call passed every guardrail, hook and the approval). */
  executed: boolean;
  /** The approval step, when it was reached and an adapter is configured. */
  approval?: ApprovalOutcome;
  /** When and by whom the adapter answered, and the wait: when an adapter answered. */
  approvalTiming?: ApprovalTiming;
  /** When the dispatch began, in milliseconds since the epoch. */
  startedAt: number;
  /** How long the dispatch took until the result was known. */
  durationMs: number;
}

/**
 * The dispatcher's time limits in milliseconds; `Infinity` means none. A guardrail,
 * `beforeCall` hook or approval that runs out of time denies the call; an `execute`
 * that runs out of time is aborted and becomes an error result; an `afterCall`,
 * `onError` or `onSettled` hook that runs out of time is skipped.
 */
export interface DispatchTimeouts {
  /** @defaultValue 10_000 */
  guardrail?: number;
  /** @defaultValue 10_000 */
  hook?: number;
  /** A person may need time to read the prompt. @defaultValue 300_000 (5 minutes) */
  approval?: number;
  /** @defaultValue Infinity (tools may legitimately run long; cancel with the signal) */
  execute?: number;
}

/**
 * Runs one call through the whole pipeline. Never throws, never rejects. `C` is the
 * caller's own context (e.g. `{ toolCallId: string }`), handed on to every guardrail,
 * hook, approval and `execute`.
 */
export type Dispatcher<C extends object = Record<never, never>> = (
  call: ToolCall,
  ctx?: ToolCallContext & C,
) => Promise<DispatchResult>;
