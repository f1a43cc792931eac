import {
  callSucceeded,
  describeError,
  isBridgeToolName,
  learningOf,
  ownValue,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/core/internal';
import type { Assembly } from './assemble.js';
import type { BatchPlan, BridgeBatchResult } from './batch.js';
import { answerInOrder, planCalls, planDescribe } from './batch.js';
import { batchErrors } from './batch-limits.js';
import { bridgeObserved, observeRead } from './bridge-observe.js';
import type {
  BridgeDispatch,
  BridgeDispatchContext,
  BridgeErrorResult,
  BridgeRefusal,
  BridgeResult,
  HandleBridgeCallOptions,
  ToolDescribeResult,
} from './bridge-results.js';
import type { BridgeErrorCode } from './errors.js';
import { answerToolSearch, runawayTexts } from './guarded-search.js';
import type { IncomingToolCall, ResolveFailure } from './resolve.js';
import {
  bridgeErrors,
  echoName,
  nameError,
  nameStatus,
  parseArguments,
  resolveCall,
} from './resolve.js';
import { guardOf } from './search-guard.js';
import { suggestNames } from './suggest.js';
import { bump } from './telemetry.js';

type RefusalListener = ((refusal: BridgeRefusal) => void) | undefined;

function tell(
  listener: RefusalListener,
  failure: ResolveFailure,
  via: BridgeRefusal['via'],
  call: IncomingToolCall,
): void {
  if (listener === undefined || failure.name === undefined) return;
  if (failure.code !== 'not_in_session' && failure.code !== 'not_currently_available') return;
  const refusal: BridgeRefusal = {
    name: echoName(failure.name),
    code: failure.code,
    error: failure.error,
    via,
  };
  const id = ownValue(call, 'id');
  if (typeof id === 'string') refusal.id = id;
  try {
    listener(refusal);
  } catch {
    // An audit that fails must not turn a refusal into something else.
  }
}

// A batch refused whole answers like a single call's refusal: counted, and data.
function refuseBatch(
  assembly: Assembly,
  key: 'describes' | 'calls',
  refusal: { error: string; code: BridgeErrorCode },
): BridgeErrorResult {
  bump(assembly, key);
  bump(assembly, 'errors');
  return { error: refusal.error, code: refusal.code };
}

async function answerReads<T>(
  assembly: Assembly,
  plan: BatchPlan,
  key: 'describes',
  single: () => Promise<T>,
  item: (value: unknown) => Promise<T>,
): Promise<T | BridgeErrorResult | BridgeBatchResult<T>> {
  if (plan.kind === 'single') return single();
  if (plan.kind === 'refused') return refuseBatch(assembly, key, plan);
  return answerInOrder(plan.items, item);
}

async function withSuggestions(
  assembly: Assembly,
  result: BridgeErrorResult,
  name: string,
): Promise<BridgeErrorResult> {
  const names = await suggestNames(assembly.catalog, name);
  if (names.length > 0) result.did_you_mean = names;
  return result;
}

async function answerDescribe(
  assembly: Assembly,
  args: Record<string, unknown> | undefined,
): Promise<ToolDescribeResult | BridgeErrorResult> {
  bump(assembly, 'describes');
  const raw = ownValue(args, 'name');
  if (typeof raw !== 'string' || raw.trim() === '') {
    bump(assembly, 'errors');
    return { error: bridgeErrors.nameRequired, code: 'name_required' };
  }
  const name = raw.trim();
  const status = isBridgeToolName(name) ? 'visible' : nameStatus(assembly, name);
  if (status === 'deferred') {
    const tool = assembly.catalog.get(name)!;
    const described: ToolDescribeResult = {
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
    };
    if (tool.inputExamples !== undefined) described.input_examples = tool.inputExamples;
    return described;
  }
  bump(assembly, 'errors');
  bump(assembly, 'misses');
  // The model's name comes back bounded, as in the error text: never a megabyte of it.
  const { error, code } = nameError(status, name);
  const result: BridgeErrorResult = { error, code, name: echoName(name) };
  return status === 'unknown' ? withSuggestions(assembly, result, name) : result;
}

async function refuse(assembly: Assembly, failure: ResolveFailure): Promise<BridgeErrorResult> {
  bump(assembly, 'errors');
  const result: BridgeErrorResult = { error: failure.error, code: failure.code };
  // The name goes back cut like in the error text: a client may send a 1 MB name.
  if (failure.name !== undefined) result.name = echoName(failure.name);
  if (failure.parameters !== undefined) result.parameters = failure.parameters;
  if (failure.missing !== undefined) result.missing = failure.missing;
  if (failure.violations !== undefined) result.violations = failure.violations;
  if (
    failure.code === 'not_in_session' ||
    failure.code === 'not_currently_available' ||
    failure.code === 'not_deferrable'
  ) {
    bump(assembly, 'misses');
  }
  if (failure.code === 'not_in_session' && failure.name !== undefined) {
    return withSuggestions(assembly, result, failure.name);
  }
  return result;
}

async function refuseUnlisted(
  assembly: Assembly,
  call: IncomingToolCall,
  status: 'known' | 'unknown',
  name: string,
  listener: RefusalListener,
): Promise<BridgeErrorResult> {
  bump(assembly, 'directCalls');
  const failure: ResolveFailure = { ok: false, ...nameError(status, name), name };
  tell(listener, failure, 'direct', call);
  return refuse(assembly, failure);
}

function readArguments(call: IncomingToolCall): Record<string, unknown> | undefined {
  const parsed = parseArguments(ownValue(call, 'arguments'));
  return parsed.ok ? parsed.value : undefined;
}

// Each item is answered as the single `tool_call` it stands for, through answerCall:
// the same checks, the same dispatch, one dispatch per item at most.
function answerCallBatch<R, C extends object>(
  assembly: Assembly,
  call: IncomingToolCall,
  items: readonly unknown[],
  dispatch: BridgeDispatch<R, C>,
  options: HandleBridgeCallOptions<C>,
): Promise<BridgeBatchResult<BridgeErrorResult | R>> {
  const id = ownValue(call, 'id');
  return answerInOrder(items, async (item, index) => {
    // Hooks and audit records key calls by id: each call of the batch gets its own.
    const single: IncomingToolCall = { name: TOOL_CALL, arguments: item };
    if (typeof id === 'string') single.id = `${id}#${index}`;
    try {
      return await answerCall(assembly, single, dispatch, 'bridge', options);
    } catch (error) {
      // A throwing dispatch must not cost the model the answers of the other calls.
      bump(assembly, 'errors');
      return { error: batchErrors.callFailed(index, describeError(error)), code: 'call_failed' };
    }
  });
}

async function answerCall<R, C extends object>(
  assembly: Assembly,
  call: IncomingToolCall,
  dispatch: BridgeDispatch<R, C>,
  via: BridgeDispatchContext['via'],
  options: HandleBridgeCallOptions<C>,
): Promise<BridgeErrorResult | R> {
  const { context, onRefused: listener, succeeded } = options;
  bump(assembly, via === 'direct' ? 'directCalls' : 'calls');
  // A tool_call of a tool the model already sees runs (a refusal made models loop on it).
  const resolved = resolveCall(assembly, call, via === 'bridge');
  if (!resolved.ok) {
    tell(listener, resolved, via, call);
    return refuse(assembly, resolved);
  }
  bump(assembly, 'dispatched');
  if (resolved.repairs) bump(assembly, 'argumentsRepaired');
  if (resolved.unchecked !== undefined) bump(assembly, 'argumentsUnchecked');
  if (resolved.skipped) bump(assembly, 'argumentsPartlyChecked');
  const dispatchContext = {
    ...(context ?? {}),
    via,
    tool: resolved.tool,
  } as C & BridgeDispatchContext;
  const visible = !assembly.catalog.has(resolved.call.name);
  if (visible) {
    bump(assembly, 'visibleCalls');
    dispatchContext.hint = runawayTexts.callDirectly(echoName(resolved.call.name));
  }
  const result = await dispatch(resolved.call, dispatchContext);
  const ok = (succeeded ?? callSucceeded)(result);
  if (ok) {
    bump(assembly, 'successfulCalls');
    guardOf(assembly)?.recordCall();
  }
  // Only deferred tools learn: the tools the model sees need no finding.
  learningOf(assembly)?.noteCall(resolved.call.name, ok && !visible);
  return visible ? withHint(result, dispatchContext.hint!) : result;
}

// A plain object result carries the hint beside its fields; anything else is left as it is.
function withHint<R>(result: R, hint: string): R {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const prototype = Object.getPrototypeOf(result);
  if (prototype !== Object.prototype && prototype !== null) return result;
  if (Object.hasOwn(result, 'hint')) return result;
  return { ...result, hint };
}

/**
 * Answers a model's call when it is for the bridge, and leaves every other call to
 * the runtime:
 *
 * - `tool_search` → `{ query, total_available, matches: [{ name, source, source_name, description }] }`
 *   (`query is required` when blank; `limit` absent or garbage → the config's
 *   default, else an integer clamped to [1, maxSearchLimit]; a query equal to a
 *   tool's exact name returns that tool first; no match → `matches: []` and a
 *   `message` that suggests broadening and names the searchable toolsets);
 * - `tool_describe` → `{ name, description, parameters }` with the full schema, or
 *   refusal of `docs/guides/errors.md` (an unknown name adds up to three `did_you_mean` names from
 *   this session's catalog only);
 * - `tool_call` → {@link resolveUnderlyingCall}, then `dispatch(realCall, { via, tool })`
 *   and its result; a refused call never reaches `dispatch`. A `tool_call` of a tool
 *   already in the model's list runs too (its arguments checked the same way), and the
 *   answer carries `hint` (`runawayTexts.callDirectly`; `dispatch` also gets it as `hint`);
 * - runaway searches (per session, through the assembly's `searchGuard`, limits from
 *   `config.runaway`): an identical query after analysis within `repeatWindowMs` answers
 *   the earlier hits with `already_searched: true` and a `hint`; from `nudgeAfter`
 *   searches in a row without a successful call, answers carry a `nudge` naming the best
 *   hits and `select:`; past `maxSearches` within `windowMs`, `tool_search` is refused
 *   (`search_limit`). A successful call (see `succeeded`) or a direct call of a visible
 *   tool ends the streak;
 * - batches: `tool_search` with `queries` (at most `MAX_SEARCH_QUERIES`, 5),
 *   `tool_describe` with `names` (at most `MAX_DESCRIBE_NAMES`, 10) and `tool_call`
 *   with `calls` (at most `MAX_BATCH_CALLS`, 10) → `{ results }`, where `results[i]`
 *   is exactly the answer of item `i` as a single call. The calls of a batch run one
 *   after the other, in order, each through the single-call path above (so `dispatch`
 *   applies guardrails, hooks and approvals to each); a refusal answers its item and
 *   the others still run; a `dispatch` that throws answers its item with an error.
 *   A batch over its bound, or `calls` beside `name`, is refused whole;
 * - `tool_search` of `select:name_a,name_b` → those exact tools, in order, each with
 *   its full schema in `parameters`; other names in `not_found` with the reason;
 * - a direct call of a deferred tool by its own name → routed like `tool_call`
 *   (unless `routeDirectCalls: false`); a direct call of a tool this session held
 *   earlier but not now → `not currently available`;
 * - any other name → `undefined`, or `not available in this session` with
 *   `refuseUnknownNames: true`.
 *
 * Every refusal is `{ error, code }` data, never an exception (`code` from
 * `BRIDGE_ERROR_CODES`; `docs/guides/errors.md` lists every code and text).
 *
 * @example
 * ```ts
 * const answer = handleBridgeCall(assembly, call, (real, ctx) => dispatcher(real, ctx));
 * const result = answer ? await answer : await dispatcher(call);
 * ```
 *
 * @param assembly - the session's current assembly
 * @param call - the model's call; any value is tolerated
 * @param dispatch - the runtime's normal dispatch for the real call
 * @param options - see {@link HandleBridgeCallOptions}
 * @returns a promise of the answer, or `undefined` when the runtime should dispatch
 * the call itself (a visible tool, or a name the bridge does not know unless
 * `refuseUnknownNames`)
 * @throws nothing; the promise rejects only when `dispatch` throws for a single call
 */
export function handleBridgeCall<R = unknown, C extends object = Record<never, never>>(
  assembly: Assembly,
  call: IncomingToolCall,
  dispatch: BridgeDispatch<R, C>,
  options: HandleBridgeCallOptions<C> = {},
): Promise<BridgeResult<R>> | undefined {
  const name = ownValue(call, 'name');
  if (typeof name !== 'string') return undefined;

  if (name === TOOL_SEARCH) {
    if (bridgeObserved()) {
      return observeRead('search', () => answerToolSearch(assembly, readArguments(call)));
    }
    return answerToolSearch(assembly, readArguments(call));
  }
  if (name === TOOL_DESCRIBE) {
    const args = readArguments(call);
    if (bridgeObserved()) {
      return observeRead('describe', () =>
        answerReads(
          assembly,
          planDescribe(args),
          'describes',
          () => answerDescribe(assembly, args),
          (item) => answerDescribe(assembly, { name: item }),
        ),
      );
    }
    return answerReads(
      assembly,
      planDescribe(args),
      'describes',
      () => answerDescribe(assembly, args),
      (item) => answerDescribe(assembly, { name: item }),
    );
  }
  if (name === TOOL_CALL) {
    const plan = planCalls(ownValue(call, 'arguments'));
    if (plan.kind === 'single') return answerCall(assembly, call, dispatch, 'bridge', options);
    if (plan.kind === 'refused') return Promise.resolve(refuseBatch(assembly, 'calls', plan));
    return answerCallBatch(assembly, call, plan.items, dispatch, options);
  }
  const status = nameStatus(assembly, name);
  if (status === 'visible') {
    // The runtime runs it: the model is acting, not searching.
    guardOf(assembly)?.recordCall();
    return undefined;
  }
  const routed = options.routeDirectCalls !== false && assembly.activated;
  if (routed && status !== 'unknown') {
    return answerCall(assembly, call, dispatch, 'direct', options);
  }
  if (status !== 'deferred' && options.refuseUnknownNames === true) {
    return refuseUnlisted(assembly, call, status, name, options.onRefused);
  }
  return undefined;
}
