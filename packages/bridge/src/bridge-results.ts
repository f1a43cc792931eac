import type {
  JsonSchemaObject,
  Promisable,
  ToolCall,
  ToolDefinition,
  ToolSource,
} from '@tool-search/core';
import type { ArgumentViolation } from '@tool-search/core/validate';
import type { BridgeErrorCode } from './errors.js';

/** One match of a `tool_search` answer. */
export interface ToolSearchMatch {
  /** The exact tool name, for `tool_describe` and `tool_call`. */
  name: string;
  /** Where the tool comes from (`mcp`, `plugin`, or `other` when unknown). */
  source: ToolSource | 'other';
  /** The toolset that holds it (e.g. `mcp-github`), else its source. */
  source_name: string;
  /** The first 400 characters of its description. */
  description: string;
  /**
   * The tool's full JSON Schema, only in the answer to a `select:` query: selecting
   * a tool by its exact name loads it, as `tool_describe` would.
   */
  parameters?: JsonSchemaObject;
}

/** A name of a `select:` query that is not a deferred tool, with the reason. */
export interface SelectMiss {
  /** The name as the model wrote it (cut when long). */
  name: string;
  /** The contract's text for the name (not deferrable, not currently available, not in session). */
  error: string;
  /** Its code: `not_deferrable`, `not_currently_available` or `not_in_session`. */
  code: BridgeErrorCode;
}

/** The answer to a batch: one answer per item, in the order the model gave them. */
export interface BridgeBatchResult<T> {
  /** `results[i]` is exactly what the single call of item `i` would have answered. */
  results: T[];
}

/** The answer to `tool_search`. */
export interface ToolSearchResult {
  /** The query, trimmed; a query longer than 500 characters is echoed cut, with `…`. */
  query: string;
  /** How many tools the catalog holds. */
  total_available: number;
  /** The best matches, best first; an exact name match comes first. */
  matches: ToolSearchMatch[];
  /** Present when nothing matched: says so, suggests broadening, names the searchable toolsets. */
  message?: string;
  /** For a `select:` query: the names that are not deferred tools, each with the reason. */
  not_found?: SelectMiss[];
  /**
   * Present when the session asked the same query (after analysis) within the repeat
   * window: the matches are the earlier answer's, not a fresh ranking.
   */
  already_searched?: true;
  /** With `already_searched`: what to do instead of searching again. */
  hint?: string;
  /**
   * Present after too many searches in a row without a successful call: names the best
   * hits and the `select:` syntax.
   */
  nudge?: string;
}

/** The answer to `tool_describe`. */
export interface ToolDescribeResult {
  /** The tool's name. */
  name: string;
  /** Its full description. */
  description: string;
  /** Its full JSON Schema. */
  parameters: JsonSchemaObject;
  /** Example argument objects, when the tool's definition has `inputExamples`. */
  input_examples?: Record<string, unknown>[];
}

/** A bridge answer that refuses: data the model sees, never an exception. */
export interface BridgeErrorResult {
  /** The error text, byte for byte as `docs/guides/errors.md` lists it. */
  error: string;
  /** The error's code, from the bridge's closed list (`BRIDGE_ERROR_CODES`). */
  code: BridgeErrorCode;
  /** The tool concerned, when there is one. */
  name?: string;
  /** Up to three names from this session's catalog, when the name was unknown. */
  did_you_mean?: string[];
  /** The tool's full schema, when a call was not invoked for missing required arguments. */
  parameters?: JsonSchemaObject;
  /** The missing required argument names. */
  missing?: string[];
  /**
   * When a call was not invoked because its arguments break the tool's schema: each
   * violation with its `path` (`arguments.options.count`) and `constraint` (`type`,
   * `enum`, `required`, `additionalProperties`, ...).
   */
  violations?: ArgumentViolation[];
}

/**
 * Any answer of {@link handleBridgeCall}: a bridge answer, what `dispatch` returned, or
 * for a batch (`queries`, `names`, `calls`) `{ results }` holding one of those per item.
 */
export type BridgeResult<R = unknown> =
  | ToolSearchResult
  | ToolDescribeResult
  | BridgeErrorResult
  | BridgeBatchResult<ToolSearchResult | ToolDescribeResult | BridgeErrorResult | R>
  | R;

/** What {@link handleBridgeCall} passes to `dispatch` besides the real call. */
export interface BridgeDispatchContext {
  /**
   * How the model called it: `'bridge'` through `tool_call` (single or batch), or
   * `'direct'` by the deferred tool's own name, which the bridge routed. The dispatcher
   * of `@tool-search/hooks` reads the same field.
   */
  via: 'bridge' | 'direct';
  /** The deferred tool's definition (or the visible tool's, see `hint`). */
  tool: ToolDefinition;
  /**
   * Set when the model called a tool already in its list through `tool_call`: the call
   * runs all the same, and this text tells the model to call it directly. A plain-object
   * result gets it as its `hint` field; a runtime whose results are of another kind
   * puts it where the model reads it.
   */
  hint?: string;
}

/**
 * The runtime's normal dispatch (e.g. `createDispatcher` of `@tool-search/hooks`):
 * guardrails, hooks, approvals and execution of the real call.
 */
export type BridgeDispatch<R = unknown, C extends object = Record<never, never>> = (
  call: ToolCall,
  context: C & BridgeDispatchContext,
) => Promisable<R>;

/** Options of {@link handleBridgeCall}. */
export interface HandleBridgeCallOptions<C extends object = Record<never, never>> {
  /**
   * Route a direct call of a deferred tool (by its exact name, without `tool_call`)
   * like a bridged call: same checks, same dispatch. Turn off for a runtime that
   * must refuse such calls through its own dispatch.
   * @defaultValue true
   */
  routeDirectCalls?: boolean;
  /**
   * Answer a call of any name the model was not given (neither in `assembly.tools`
   * nor deferred) with `'<name>' is not available in this session. …` instead of
   * returning `undefined`. Set it when the runtime's own dispatch looks tools up in
   * a registry wider than the session (e.g. every registered tool before scoping),
   * so an out-of-scope name never reaches it. Leave it off when the runtime offers
   * the model tools of its own besides `assembly.tools`.
   * @defaultValue false
   */
  refuseUnknownNames?: boolean;
  /** Extra context merged into what `dispatch` receives (e.g. `sessionId`, `signal`). */
  context?: C;
  /**
   * Told of every call refused because its name is outside the session (`not available
   * in this session`, `not currently available`): such a call never reaches `dispatch`,
   * so its hooks (an audit hook among them) would not see it. Write its audit record here
   * (e.g. `AuditHook.recordRefusal` of `@tool-search/hooks`). What it throws is ignored.
   */
  onRefused?: (refusal: BridgeRefusal) => void;
  /**
   * Whether a dispatched call succeeded: a successful call ends the session's streak of
   * searches (see `SearchGuard`) and counts in `successfulCalls`.
   * @defaultValue true unless the result is an object with `isError: true` (MCP) or a
   * `status` other than `'ok'` (`DispatchResult` of `@tool-search/hooks`)
   */
  succeeded?: (result: unknown) => boolean;
}

/** A call refused as outside the session, as {@link HandleBridgeCallOptions.onRefused} hears of it. */
export interface BridgeRefusal {
  /** The refused tool name, bounded as in the error text. */
  name: string;
  /** Why: the session does not hold the tool, or it is known but out of its scope now. */
  code: 'not_in_session' | 'not_currently_available';
  /** The error text the model was given. */
  error: string;
  /** `'bridge'` through `tool_call` (a single call or a batch item), `'direct'` by the name itself. */
  via: 'bridge' | 'direct';
  /** The call's id, when it had one (a batch item's is `<id>#<index>`). */
  id?: string;
}
