import type { Promisable, ToolOrigin } from '@tool-search/core';
import { ToolSearchError } from '@tool-search/core';
import { originOfCall } from './tool-identity.js';
import type {
  ApprovalOutcome,
  CallRoute,
  DeniedBy,
  DispatchResult,
  ToolCallHook,
} from './types.js';

/**
 * One audit record: what was called, how, and what became of it. Plain JSON.
 */
export interface AuditRecord {
  /** The real tool name that was decided on (after unwrapping `tool_call` and any rewrite). */
  tool: string;
  /**
   * Where the tool really comes from (its server and upstream name), when its definition
   * carries an `origin`: the exposed `tool` name may be a prefixed or renamed one.
   */
  origin?: ToolOrigin;
  /** The name as requested, when a `beforeCall` hook renamed the call. */
  requestedTool?: string;
  /** The provider's call id, when it has one. */
  callId?: string;
  sessionId?: string;
  /**
   * How the call came in: `'bridge'` through `tool_call`, `'direct'` by the tool's own
   * name (a listed tool, or a deferred one the bridge routed), `'program'` from inside a
   * `tool_program` program, `'console'` by an operator in the gateway console.
   */
  via: CallRoute;
  /** The id of the program that made the call, when `via` is `'program'`. */
  programId?: string;
  /** The console operator who made the call (e.g. `profile:ops`), when `via` is `'console'`. */
  operator?: string;
  /**
   * The policy decision: `allowed` (every guardrail, hook and the approval let it
   * through, and the tool was started), `denied`, `cancelled` (the caller aborted
   * before a decision), or `invalid` (a malformed call, or the tool lookup failed).
   */
  decision: 'allowed' | 'denied' | 'cancelled' | 'invalid';
  /** The dispatch status: `ok`, `denied`, `error` or `cancelled`. */
  status: DispatchResult['status'];
  /**
   * Which guardrail, hook or approval denied the call; or `{ kind: 'scope' }` for a call
   * refused before dispatch because its name is outside the session's scope (see
   * {@link AuditHook.recordRefusal}).
   */
  deniedBy?: DeniedBy | { kind: 'scope'; name: string };
  /** Why the call was denied or cancelled. */
  reason?: string;
  /** How the approval step went, when an approval adapter is configured and was reached. */
  approval?: ApprovalOutcome;
  /**
   * When the approval adapter answered (ISO 8601), who answered when it said (e.g. a
   * console operator's principal), and how long the call waited: `durationMs` less
   * `waitMs` is the time the gateway and the tool took.
   */
  approvalAnswer?: { at: string; waitMs: number; by?: string };
  /** The error text, when the tool failed or the call was malformed. */
  error?: string;
  /**
   * The tool ran but answered an error (MCP's `isError`): its text, as the hook's
   * `toolErrorOf` option gives it. `status` stays the dispatcher's `ok`; a reader shows
   * such a call as failed.
   */
  toolError?: string;
  /** The final arguments as text, bounded, as the hook's `describeCall` option renders them. */
  shownArguments?: string;
  /** The start of the result as text, as the hook's `describeCall` option renders it. */
  resultExcerpt?: string;
  /** The final arguments, only with `includeArguments`. */
  arguments?: Record<string, unknown>;
  /** When the dispatch began (ISO 8601). */
  startedAt: string;
  /** How long the dispatch took, in milliseconds. */
  durationMs: number;
}

/** Receives audit records; may be async (the dispatcher waits, within its hook timeout). */
export type AuditSink = (record: AuditRecord) => Promisable<void>;

/**
 * A call refused before it reached the dispatcher because its name is outside the
 * session's scope (the bridge answers `'<name>' is not available in this session`):
 * what {@link AuditHook.recordRefusal} records.
 */
export interface AuditRefusal {
  /** The refused name, as the model gave it (the runtime may bound its length). */
  tool: string;
  /** Why: the refusal text the model was given. */
  reason: string;
  /** How the model called it: through `tool_call` (`'bridge'`), or by the name itself. */
  via: CallRoute;
  /** Who refused it. @defaultValue `'session-scope'` */
  refusedBy?: string;
  callId?: string;
  sessionId?: string;
  /** The id of the program that made the call, when `via` is `'program'`. */
  programId?: string;
}

/** The hook {@link createAuditHook} makes: a {@link ToolCallHook} that can also record a refusal. */
export interface AuditHook extends ToolCallHook {
  /**
   * Writes the record of a call that never reached the dispatcher (so `onSettled` never
   * saw it) to the same sink, in the same shape: `decision` and `status` `'denied'`,
   * `deniedBy: { kind: 'scope', name }`, the reason, and no arguments (nothing was
   * resolved to run).
   *
   * @param refusal - the refused call
   * @returns what the sink returns
   * @throws what the sink throws
   */
  recordRefusal(refusal: AuditRefusal): Promisable<void>;
}

/** Options of {@link createAuditHook}. */
export interface AuditHookOptions {
  /** Put the final arguments in each record. Off by default: arguments may hold secrets. */
  includeArguments?: boolean;
  /** @defaultValue `'audit'` */
  name?: string;
  /**
   * Tells a result the tool answered as an error (MCP's `isError`) apart: its text,
   * recorded as `toolError` (bound it: it goes in every record), or undefined for a
   * result that is no error. @defaultValue none: no record has `toolError`
   */
  toolErrorOf?: (result: unknown) => string | undefined;
  /**
   * What the record keeps of a call that ran: its arguments and the start of its
   * result as text (`shownArguments`, `resultExcerpt`). Bound and escape them here: they
   * go in every record. @defaultValue none: no record has them
   */
  describeCall?: (
    call: { name: string; arguments: Record<string, unknown> },
    result: unknown,
  ) => { shownArguments?: string; resultExcerpt?: string };
}

/**
 * Creates a hook that writes one structured {@link AuditRecord} per dispatched call,
 * whatever became of it: ran, failed, denied (by a guardrail, a hook or the approval)
 * or cancelled. It works through the dispatcher's `onSettled` phase, which runs for
 * every call, including those a guardrail denied before any `beforeCall` hook ran.
 * A sink that throws or times out never changes the call's result; the dispatcher
 * names it in the result's `warnings`.
 *
 * @param sink - receives the records
 * @param options.includeArguments - put the final arguments in each record
 * @param options.name - the hook's name in warnings
 * @param options.toolErrorOf - the text of a result the tool answered as an error
 * @param options.describeCall - the arguments and the start of the result, as text
 * Calls refused before they reach a dispatcher (a name outside the session's scope) are
 * recorded through {@link AuditHook.recordRefusal}, to the same sink.
 *
 * @returns an {@link AuditHook}
 * @throws `ToolSearchError` `invalid_argument` when `sink` is not a function
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({
 *   execute,
 *   guardrails: [policy],
 *   hooks: [createAuditHook((record) => logger.info(record, 'tool call'))],
 * });
 * // { tool: 'github_create_issue', origin: { server: 'github', name: 'create_issue' },
 * //   via: 'bridge', decision: 'denied', status: 'denied',
 * //   deniedBy: { kind: 'guardrail', name: 'tool-policy' }, reason: '...', durationMs: 0.4, ... }
 * ```
 */
export function createAuditHook(sink: AuditSink, options: AuditHookOptions = {}): AuditHook {
  if (typeof sink !== 'function') {
    throw new ToolSearchError('invalid_argument', 'createAuditHook: sink must be a function.');
  }
  return {
    name: options.name ?? 'audit',
    recordRefusal(refusal) {
      const record: AuditRecord = {
        tool: String(refusal.tool),
        via: refusal.via,
        decision: 'denied',
        status: 'denied',
        deniedBy: { kind: 'scope', name: refusal.refusedBy ?? 'session-scope' },
        reason: String(refusal.reason),
        startedAt: new Date().toISOString(),
        durationMs: 0,
      };
      if (refusal.callId !== undefined) record.callId = refusal.callId;
      if (refusal.sessionId !== undefined) record.sessionId = refusal.sessionId;
      if (typeof refusal.programId === 'string') record.programId = refusal.programId;
      return sink(record);
    },
    onSettled(settled, ctx) {
      const { requestedCall, result, approval, executed, startedAt, durationMs } = settled;
      const record: AuditRecord = {
        tool: result.call.name,
        via: ctx.via ?? 'direct',
        decision: executed
          ? 'allowed'
          : result.status === 'denied' || result.status === 'cancelled'
            ? result.status
            : 'invalid',
        status: result.status,
        startedAt: new Date(startedAt).toISOString(),
        durationMs,
      };
      const origin = originOfCall(result.call.name, ctx.tool);
      if (origin !== undefined) record.origin = { server: origin.server, name: origin.name };
      if (requestedCall.name !== result.call.name) record.requestedTool = requestedCall.name;
      if (result.call.id !== undefined) record.callId = result.call.id;
      if (ctx.sessionId !== undefined) record.sessionId = ctx.sessionId;
      if (typeof ctx.programId === 'string') record.programId = ctx.programId;
      if (typeof ctx.operator === 'string') record.operator = ctx.operator;
      if (result.status === 'denied') {
        record.deniedBy = result.by;
        record.reason = result.reason;
      }
      if (result.status === 'cancelled') record.reason = result.reason;
      if (result.status === 'error') record.error = result.error.message;
      if (options.describeCall !== undefined) {
        const described = options.describeCall(
          result.call,
          result.status === 'ok' ? result.result : undefined,
        );
        if (described.shownArguments !== undefined) {
          record.shownArguments = described.shownArguments;
        }
        if (described.resultExcerpt !== undefined) record.resultExcerpt = described.resultExcerpt;
      }
      if (result.status === 'ok' && options.toolErrorOf !== undefined) {
        const toolError = options.toolErrorOf(result.result);
        if (toolError !== undefined) record.toolError = toolError;
      }
      if (approval !== undefined) record.approval = approval;
      const timing = settled.approvalTiming;
      if (timing !== undefined) {
        record.approvalAnswer = {
          at: new Date(timing.answeredAt).toISOString(),
          waitMs: Math.round(timing.waitMs),
          ...(timing.answeredBy === undefined ? {} : { by: timing.answeredBy }),
        };
      }
      if (options.includeArguments) record.arguments = result.call.arguments;
      return sink(record);
    },
  };
}
