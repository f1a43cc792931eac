// The host's side of one program's requests: tools.search, tools.describe and tools.call.
// Every nested call is resolved like tool_call (the bridge's resolution: real name, scope,
// arguments) and then handed to the host's dispatcher with via 'program'.

import {
  type Assembly,
  bridgeErrors,
  echoName,
  handleBridgeCall,
  resolveUnderlyingCall,
} from '@tool-search/bridge';
import type { ToolCall } from '@tool-search/core';
import type { Context } from '@tool-search/core/internal';
import { declaresReadOnly, isBridgeToolName, isRecord } from '@tool-search/core/internal';
import type { AuditHook, Dispatcher, DispatchResult } from '@tool-search/hooks';
import type { CallBudget } from './call-budget.js';
import { declareTool, type ToolWithOutput } from './declarations.js';
import type { ProgramLimits } from './limits.js';
import type { ProgramPolicy } from './program-policy.js';
import { type ProgramCall, TOOL_PROGRAM } from './program-types.js';
import type { GuestFailure, HostOperation } from './protocol.js';

/** What a run's requests need of the program tool and the run. */
export interface RequestScope {
  programId: string;
  sessionId?: string;
  /** Aborts when the program ends or is cancelled: calls in flight are cancelled. */
  signal: AbortSignal;
  /** Every tool the program may reach, deferrable, in one catalog. */
  assembly: Assembly;
  /** The host's own definitions, by name (what guardrails and approvals see as ctx.tool). */
  tools: ReadonlyMap<string, ToolWithOutput>;
  dispatch: Dispatcher;
  limits: ProgramLimits;
  budget: CallBudget;
  policy?: ProgramPolicy;
  audit?: Pick<AuditHook, 'recordRefusal'>;
  /** The host session's search budget: an answer refuses the search. */
  admitSearch?: () => { error: string; code: string } | undefined;
  /** Where settled calls are listed. */
  calls: ProgramCall[];
  /** The host's own fields for every nested call's dispatch context. */
  dispatchContext?: Readonly<Record<string, unknown>>;
  /** The run's OpenTelemetry context, when traced: its requests are its children. */
  traceContext?: Context;
}

/** The host's answer to one request: a JSON value, or a failure the program can catch. */
export type RequestAnswer = { ok: true; json: string } | { ok: false; failure: GuestFailure };

const failure = (
  status: GuestFailure['status'],
  message: string,
  code?: string,
): RequestAnswer => ({
  ok: false,
  failure: code === undefined ? { status, message } : { status, message, code },
});

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function visible(scope: RequestScope, name: string): ToolWithOutput | undefined {
  const tool = scope.tools.get(name);
  if (tool === undefined) return undefined;
  return scope.policy === undefined || scope.policy.allows(tool) ? tool : undefined;
}

function answerValue(scope: RequestScope, value: unknown): RequestAnswer {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return failure('error', `the result is not JSON: ${String(error)}`, 'tool_failed');
  }
  json ??= 'null';
  const spent = scope.budget.spendIn(bytes(json));
  return spent === undefined ? { ok: true, json } : failure('error', spent.message, spent.code);
}

async function search(
  scope: RequestScope,
  payload: Record<string, unknown>,
): Promise<RequestAnswer> {
  // The host session's one budget first: a search by any route spends it.
  const refused = scope.admitSearch?.();
  if (refused !== undefined) return failure('error', refused.error, refused.code);
  const answer = (await handleBridgeCall(
    scope.assembly,
    { name: 'tool_search', arguments: { query: payload['query'], limit: payload['limit'] } },
    () => Promise.reject(new Error('tool_search dispatches nothing')),
  )) as { error?: string; code?: string; matches?: { name: string }[] };
  if (answer.error !== undefined) return failure('error', answer.error, answer.code);
  const matches = (answer.matches ?? []).filter(
    (match) => visible(scope, match.name) !== undefined,
  );
  return answerValue(scope, matches);
}

function describe(scope: RequestScope, payload: Record<string, unknown>): RequestAnswer {
  const name = payload['name'];
  if (typeof name !== 'string' || name.trim() === '')
    return failure('error', bridgeErrors.nameRequired, 'name_required');
  const tool = visible(scope, name.trim());
  if (tool === undefined)
    return failure('denied', bridgeErrors.notInSession(name), 'not_in_session');
  return answerValue(scope, declareTool(tool));
}

async function recordRefusal(scope: RequestScope, name: string, reason: string): Promise<void> {
  if (scope.audit === undefined) return;
  const sessionId = scope.sessionId === undefined ? {} : { sessionId: scope.sessionId };
  try {
    await scope.audit.recordRefusal({
      tool: echoName(name),
      reason,
      via: 'program',
      programId: scope.programId,
      ...sessionId,
    });
  } catch {
    // An audit sink that fails never changes the refusal.
  }
}

function record(scope: RequestScope, name: string, answer: RequestAnswer): RequestAnswer {
  const entry: ProgramCall = {
    name: echoName(name),
    status: answer.ok ? 'ok' : answer.failure.status,
  };
  if (!answer.ok) entry.reason = answer.failure.message;
  scope.calls.push(entry);
  return answer;
}

function fromDispatch(scope: RequestScope, result: DispatchResult): RequestAnswer {
  switch (result.status) {
    case 'ok':
      return answerValue(scope, result.result);
    case 'denied':
      return {
        ok: false,
        failure: {
          status: 'denied',
          message: result.reason,
          by: `${result.by.kind}:${result.by.name}`,
        },
      };
    case 'error':
      return failure('error', result.error.message, result.error.code);
    default:
      return failure('cancelled', result.reason);
  }
}

// The call's own deadline (an approval's wait included) on top of the run's signal.
function dispatchWithin(run: () => Promise<DispatchResult>, signal: AbortSignal) {
  return new Promise<DispatchResult | 'timed-out'>((resolve) => {
    const onAbort = () => resolve('timed-out');
    signal.addEventListener('abort', onAbort, { once: true });
    run()
      .then(resolve, (error: unknown) =>
        resolve({
          status: 'error',
          call: { name: '', arguments: {} },
          error: { code: 'dispatch_failed', message: `the dispatcher failed: ${String(error)}` },
        }),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// Resolution, as tool_call resolves: the real name, the scope, the arguments; then the
// write budget. Answers the call to dispatch, or the refusal.
async function resolveNested(
  scope: RequestScope,
  payload: Record<string, unknown>,
): Promise<{ call: ToolCall; tool: ToolWithOutput | undefined } | RequestAnswer> {
  const rawName = typeof payload['name'] === 'string' ? payload['name'] : '';
  if (isBridgeToolName(rawName.trim()) || rawName.trim() === TOOL_PROGRAM) {
    return failure('denied', bridgeErrors.bridgeTool(rawName.trim()), 'bridge_tool');
  }
  const resolved = resolveUnderlyingCall(scope.assembly, {
    name: rawName,
    arguments: payload['arguments'],
  });
  if (!resolved.ok) {
    // A name outside the program's reach is refused like the bridge refuses it, and
    // audited as a scope refusal; a malformed call is an error the program can fix.
    const outOfScope = resolved.code.startsWith('not_');
    if (outOfScope) await recordRefusal(scope, rawName, resolved.error);
    return failure(outOfScope ? 'denied' : 'error', resolved.error, resolved.code);
  }
  const tool = scope.tools.get(resolved.call.name);
  // The policy's word on read-only, never the tool's alone: anything else is a write.
  const policy = scope.policy;
  const readOnly =
    tool !== undefined &&
    (policy?.isReadOnly === undefined ? declaresReadOnly(tool) : policy.isReadOnly(tool));
  if (!readOnly) {
    const over = scope.budget.spendWrite(resolved.call.name);
    if (over !== undefined) return failure('error', over.message, over.code);
  }
  return { call: resolved.call, tool };
}

// The host's dispatcher, like a direct call, with via 'program', within a free slot and
// the call's own deadline.
async function dispatchNested(
  scope: RequestScope,
  call: ToolCall,
  tool: ToolWithOutput | undefined,
): Promise<RequestAnswer> {
  const free = await scope.budget.slot();
  try {
    if (scope.signal.aborted) {
      return failure('cancelled', 'the program ended before the call started');
    }
    const signal = AbortSignal.any([scope.signal, AbortSignal.timeout(scope.limits.callTimeoutMs)]);
    const context = {
      ...scope.dispatchContext,
      via: 'program' as const,
      programId: scope.programId,
      signal,
      ...(tool ? { tool } : {}),
      ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    };
    const result = await dispatchWithin(() => scope.dispatch(call, context), signal);
    if (result !== 'timed-out') return fromDispatch(scope, result);
    return failure(
      'cancelled',
      scope.signal.aborted
        ? 'the program ended before the call settled'
        : `the call took longer than ${scope.limits.callTimeoutMs} ms (limits.callTimeoutMs)`,
    );
  } finally {
    free();
  }
}

async function callTool(
  scope: RequestScope,
  payload: Record<string, unknown>,
): Promise<RequestAnswer> {
  const resolved = await resolveNested(scope, payload);
  return 'call' in resolved ? dispatchNested(scope, resolved.call, resolved.tool) : resolved;
}

/**
 * Answers one request of a program. Never throws.
 *
 * @param scope - the run's scope
 * @param op - `search`, `describe` or `call`
 * @param payload - the JSON text the program sent
 * @returns the answer to hand back to the program
 */
export async function answerRequest(
  scope: RequestScope,
  op: HostOperation,
  payload: string,
): Promise<RequestAnswer> {
  // Every request spends its budgets before the host does any work on it, malformed or not.
  const over =
    (op === 'call' ? scope.budget.spendCall() : scope.budget.spendLookup()) ??
    scope.budget.spendOut(bytes(payload));
  const parsed = parseRequest(
    payload,
    over === undefined ? Number.POSITIVE_INFINITY : SHORT_PAYLOAD,
  );
  const name = typeof parsed?.['name'] === 'string' ? parsed['name'] : '';
  if (over !== undefined) {
    const refused = failure('error', over.message, over.code);
    return op === 'call' ? record(scope, name, refused) : refused;
  }
  if (parsed === undefined)
    return failure('error', `tools.${op} takes an object`, 'invalid_argument');
  try {
    if (op === 'search') return await search(scope, parsed);
    if (op === 'describe') return describe(scope, parsed);
    return record(scope, name, await callTool(scope, parsed));
  } catch (error) {
    return failure('error', `the host failed to answer tools.${op}: ${String(error)}`);
  }
}

// A refused request is read only when short, for the name its call record shows.
const SHORT_PAYLOAD = 2_048;

function parseRequest(payload: string, max: number): Record<string, unknown> | undefined {
  if (payload.length > max) return undefined;
  try {
    const parsed: unknown = JSON.parse(payload);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
