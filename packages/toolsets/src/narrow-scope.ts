import { describeError } from '@tool-search/core/internal';
import { expandInto, isRegistryLike, readScope } from './read-scope.js';
import { type NotAToolsetName, parseScopeRequest, type RequestedList } from './scope-request.js';
import type { SessionScope } from './session-scope.js';
import type { ToolsetRegistry } from './toolset-registry.js';

/**
 * Why {@link narrowScope} refused part of a request.
 *
 * - `not_in_parent`: the parent restricts and none of its enabled toolsets holds the
 *   requested one (with a registry, the parts of it the parent does hold are granted
 *   instead, see {@link ScopeRefusal.granted}).
 * - `disabled_by_parent`: a toolset the parent disables holds the requested one.
 * - `invalid`: a value that is not a scope, a list or a toolset name (or a registry
 *   that is not one). An unreadable parent, request field, disabled entry or registry
 *   makes the child admit nothing; an unreadable enabled entry is dropped.
 */
export type ScopeRefusalReason = 'not_in_parent' | 'disabled_by_parent' | 'invalid';

/** One thing {@link narrowScope} refused, for a runtime to log. */
export interface ScopeRefusal {
  /** Why it was refused. */
  reason: ScopeRefusalReason;
  /** Where the refused value was: in the request's lists, the request itself, the parent, or the registry. */
  field: 'enabledToolsets' | 'disabledToolsets' | 'request' | 'parent' | 'registry';
  /** The requested toolset name, when the refused value was one. */
  toolset?: string;
  /**
   * For `not_in_parent` with a registry: the toolsets included by the requested one
   * that the parent does enable, granted in its place. Empty when nothing was granted.
   */
  granted?: readonly string[];
  /** A one-line explanation, safe to log. */
  message: string;
}

/**
 * The scope {@link narrowScope} returns: a plain {@link SessionScope} (frozen) that
 * also carries what was refused. `refused` is not enumerable, so spreading or
 * serialising the scope gives exactly `{ enabledToolsets?, disabledToolsets? }`.
 */
export interface NarrowedScope extends SessionScope {
  /** What the request asked for and did not get, in request order. Not enumerable. */
  readonly refused: readonly ScopeRefusal[];
}

function pushUnique(into: string[], seen: Set<string>, name: string): void {
  if (!seen.has(name)) {
    seen.add(name);
    into.push(name);
  }
}

function finish(
  enabled: string[] | undefined,
  disabled: string[],
  refused: ScopeRefusal[],
): NarrowedScope {
  const scope: SessionScope = {};
  if (enabled !== undefined) scope.enabledToolsets = Object.freeze(enabled);
  if (disabled.length > 0) scope.disabledToolsets = Object.freeze(disabled);
  Object.defineProperty(scope, 'refused', {
    value: Object.freeze(refused.map((refusal) => Object.freeze(refusal))),
    enumerable: false,
  });
  return Object.freeze(scope) as NarrowedScope;
}

// The toolsets of `name`'s expansion that the parent enables and does not disable,
// without those already covered by another granted toolset.
function grantedParts(
  name: string,
  registry: ToolsetRegistry,
  parentEnabled: ReadonlySet<string>,
  parentDisabled: ReadonlySet<string>,
): string[] {
  const candidates = expandInto([name], registry, new Set());
  candidates.delete(name);
  const inParent = [...candidates].filter(
    (candidate) => parentEnabled.has(candidate) && !parentDisabled.has(candidate),
  );
  return inParent.filter(
    (candidate) =>
      !inParent.some(
        (other) => other !== candidate && expandInto([other], registry, new Set()).has(candidate),
      ),
  );
}

// The request's disabled toolsets join the parent's; anything but a list of names is
// unreadable, and ignoring it could widen the child: it then admits nothing.
function narrowDisabled(
  requested: RequestedList | undefined,
  add: (name: string) => void,
  refuseAll: (field: ScopeRefusal['field'], problem: string) => void,
): void {
  if (requested?.kind === 'invalid') {
    refuseAll(
      'disabledToolsets',
      `request.disabledToolsets must be an array of toolset names, got ${describeError(requested.value)}`,
    );
    return;
  }
  if (requested === undefined) return;
  for (const entry of requested.entries) {
    if (typeof entry === 'string') add(entry);
    else {
      refuseAll(
        'disabledToolsets',
        `request.disabledToolsets holds ${describeError(entry.notAName)}, which is not a toolset name`,
      );
    }
  }
}

interface ParentBounds {
  /** The parent's enabled toolsets, expanded; `undefined` when the parent does not restrict. */
  parentEnabled: ReadonlySet<string> | undefined;
  /** The parent's disabled toolsets, expanded. */
  parentDisabled: ReadonlySet<string>;
  /** The registry to grant parts with, when it is usable and the child admits anything. */
  registry: ToolsetRegistry | undefined;
}

// One requested enabled entry: what it grants and, unless granted whole, why not.
function decideEnabled(
  entry: string | NotAToolsetName,
  bounds: ParentBounds,
): { accepted: readonly string[]; refusal?: ScopeRefusal } {
  if (typeof entry !== 'string') {
    return {
      accepted: [],
      refusal: {
        reason: 'invalid',
        field: 'enabledToolsets',
        message: `request.enabledToolsets holds ${describeError(entry.notAName)}, which is not a toolset name; ignored.`,
      },
    };
  }
  const { parentEnabled, parentDisabled, registry } = bounds;
  if (parentDisabled.has(entry)) {
    return {
      accepted: [],
      refusal: {
        reason: 'disabled_by_parent',
        field: 'enabledToolsets',
        toolset: entry,
        message: `Toolset '${entry}' is disabled in the parent scope; refused.`,
      },
    };
  }
  if (parentEnabled === undefined || parentEnabled.has(entry)) return { accepted: [entry] };
  let granted: string[] = [];
  if (registry !== undefined) {
    try {
      granted = grantedParts(entry, registry, parentEnabled, parentDisabled);
    } catch {
      granted = [];
    }
  }
  return {
    accepted: granted,
    refusal: {
      reason: 'not_in_parent',
      field: 'enabledToolsets',
      toolset: entry,
      granted: Object.freeze(granted),
      message:
        `Toolset '${entry}' is not enabled in the parent scope; refused.` +
        (granted.length > 0
          ? ` Granted the parts the parent enables instead: ${granted.join(', ')}.`
          : ''),
    },
  };
}

/**
 * The scope of a subagent: what `request` asks for, cut to what `parent` allows. The
 * result is never wider than `parent`, whatever the request asks: enabling a toolset
 * the parent does not enable is refused, the parent's disabled toolsets stay disabled
 * (a request can only add to them), and garbage never widens anything.
 *
 * - `request.enabledToolsets` absent: the child keeps the parent's enabled toolsets.
 *   Present: the child enables those of them the parent allows. With a registry, a
 *   toolset that one of the parent's enabled toolsets includes is allowed, and for a
 *   requested toolset that is wider than the parent the parts the parent holds are
 *   granted in its place.
 * - `request.disabledToolsets`: added to the parent's.
 * - `request` absent: the child is the parent.
 *
 * Use the child with the same registry (or none, if narrowed without one): the
 * guarantee is about {@link scopeTools} under that registry.
 *
 * @example
 * ```ts
 * const child = narrowScope(
 *   { enabledToolsets: ['dev'] },
 *   { enabledToolsets: ['mcp-github', 'mcp-payments'] },
 *   registry,
 * );
 * child.enabledToolsets; // ['mcp-github']
 * for (const refusal of child.refused) log.warn(refusal.message); // mcp-payments: not_in_parent
 * ```
 *
 * @param parent - the parent session's scope
 * @param request - the scope the subagent asks for
 * @param registry - the registry both scopes are used with
 * @returns the child scope, frozen, with a non-enumerable `refused` list
 * @throws nothing
 */
export function narrowScope(
  parent: SessionScope,
  request: SessionScope | undefined,
  registry?: ToolsetRegistry,
): NarrowedScope {
  try {
    return narrowScopeUnguarded(parent, request, registry);
  } catch (error) {
    // Something threw while reading the input (a proxy, a getter): admit nothing.
    return finish(
      [],
      [],
      [
        {
          reason: 'invalid',
          field: 'request',
          message: `The scopes could not be read: ${describeError(error)}; the child scope admits nothing.`,
        },
      ],
    );
  }
}

function narrowScopeUnguarded(
  parent: SessionScope,
  request: SessionScope | undefined,
  registry: ToolsetRegistry | undefined,
): NarrowedScope {
  const refused: ScopeRefusal[] = [];
  let nothing = false;
  /** Refuses an unreadable input: the child scope then admits nothing. */
  const refuseAll = (field: ScopeRefusal['field'], problem: string): void => {
    refused.push({
      reason: 'invalid',
      field,
      message: `${problem}; the child scope admits nothing.`,
    });
    nothing = true;
  };

  const parentRead = readScope(parent, 'parent');
  for (const problem of parentRead.problems) {
    refused.push({ reason: 'invalid', field: 'parent', message: `${problem}.` });
  }
  if (!parentRead.ok) nothing = true;

  let usable: ToolsetRegistry | undefined;
  if (registry !== undefined) {
    if (isRegistryLike(registry)) usable = registry;
    else {
      refuseAll('registry', `registry must be a ToolsetRegistry, got ${describeError(registry)}`);
    }
  }

  const disabled: string[] = [];
  const disabledSeen = new Set<string>();
  for (const name of parentRead.disabled) pushUnique(disabled, disabledSeen, name);

  let parentEnabled: Set<string> | undefined;
  let parentDisabled = new Set<string>();
  try {
    if (parentRead.enabled !== undefined) {
      parentEnabled = expandInto(parentRead.enabled, usable, new Set());
    }
    parentDisabled = expandInto(parentRead.disabled, usable, new Set());
  } catch (error) {
    refuseAll('registry', `registry failed: ${describeError(error)}`);
  }

  let enabled: string[] | undefined =
    parentRead.enabled === undefined ? undefined : [...parentRead.enabled];

  if (request !== undefined) {
    const parsed = parseScopeRequest(request);
    if (parsed === undefined) {
      refuseAll('request', `request must be a scope object, got ${describeError(request)}`);
    } else {
      narrowDisabled(
        parsed.disabledToolsets,
        (name) => pushUnique(disabled, disabledSeen, name),
        refuseAll,
      );
      const requested = parsed.enabledToolsets;
      if (requested?.kind === 'invalid') {
        refuseAll(
          'enabledToolsets',
          `request.enabledToolsets must be an array of toolset names, got ${describeError(requested.value)}`,
        );
        enabled = [];
      } else if (requested?.kind === 'list') {
        const accepted: string[] = [];
        const acceptedSeen = new Set<string>();
        for (const entry of requested.entries) {
          const decision = decideEnabled(entry, {
            parentEnabled,
            parentDisabled,
            registry: nothing ? undefined : usable,
          });
          for (const name of decision.accepted) pushUnique(accepted, acceptedSeen, name);
          if (decision.refusal !== undefined) refused.push(decision.refusal);
        }
        enabled = accepted;
      }
    }
  }

  return finish(nothing ? [] : enabled, disabled, refused);
}
