import { hostname } from 'node:os';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createGlobMatcher } from '@tool-search/hooks';
import { scopeTools } from '@tool-search/toolsets';
import type { JsonObject } from '../upstream/features/feature-client.js';
import type { ServerFeatures, UpstreamFeatures } from '../upstream/features/upstream-features.js';
import type { SessionState } from './session-state.js';
import type { GatewayActivity } from './types.js';

type Matcher = ReturnType<typeof createGlobMatcher>;

/** What a session's protocol features share: its state, the pool's features and its policy. */
export interface FeatureSession {
  readonly state: SessionState;
  readonly hub: UpstreamFeatures;
  /** The connected servers in the session's scope, in the config's order. */
  servers(): ServerFeatures[];
  /** Whether a server is in the session's scope. */
  inScope(server: string): boolean;
  /** Whether a guardrail rule denies a resource (`server/uri`) or prompt (`server/name`). */
  denied(kind: 'resources' | 'prompts', server: string, name: string): boolean;
  /** Writes one feature request to the activity feed and the audit trail. */
  record(entry: FeatureRecord): void;
}

/** One resource read, prompt get or relayed server request, as the feed and the trail get it. */
export interface FeatureRecord {
  kind: NonNullable<GatewayActivity['kind']>;
  /** What was asked: a URI, a prompt's name, a relayed method. */
  name: string;
  server?: string;
  status: GatewayActivity['status'];
  detail?: string;
  durationMs: number;
  arguments?: Record<string, unknown>;
}

/**
 * The session's view of the pool's features.
 *
 * @throws nothing
 */
export function createFeatureSession(state: SessionState, hub: UpstreamFeatures): FeatureSession {
  const { registry } = state.context;
  // The rules as last applied (a reload replaces them): matchers made again when they change.
  let matched: { rules: unknown; resources: Matcher; prompts: Matcher } | undefined;
  const matchers = () => {
    const rules = state.context.rules;
    if (matched === undefined || matched.rules !== rules) {
      matched = {
        rules,
        resources: createGlobMatcher(rules?.resources?.deny ?? []),
        prompts: createGlobMatcher(rules?.prompts?.deny ?? []),
      };
    }
    return matched;
  };
  const inScope = (server: string) => {
    const toolset = `mcp-${server}`;
    // The server's toolset as a whole, or any of its tools the scope lets through.
    const probe = {
      name: '\u0000scope-probe',
      inputSchema: { type: 'object' as const },
      source: 'mcp' as const,
      toolset,
    };
    if (scopeTools([probe], state.scope, registry).length === 1) return true;
    for (const tool of state.scoped.values()) if (tool.toolset === toolset) return true;
    return false;
  };
  return {
    state,
    hub,
    servers: () => hub.servers().filter((features) => inScope(features.server)),
    inScope,
    denied: (kind, server, name) => matchers()[kind](`${server}/${name}`),
    record(entry) {
      const activity: GatewayActivity = {
        sessionId: state.id,
        kind: entry.kind,
        name: entry.name,
        arguments: entry.arguments ?? {},
        status: entry.status,
        durationMs: entry.durationMs,
        ...(entry.detail === undefined ? {} : { detail: entry.detail }),
        ...(state.profileName === undefined ? {} : { profile: state.profileName }),
      };
      state.context.emitActivity(activity);
      void state.context.store
        .appendAudit({
          tool: `${entry.kind}:${entry.name}`,
          ...(entry.server === undefined
            ? {}
            : { origin: { server: entry.server, name: entry.name } }),
          sessionId: state.id,
          via: 'direct',
          decision: entry.status === 'denied' ? 'denied' : 'allowed',
          status: entry.status === 'tool_error' ? 'error' : entry.status,
          ...(entry.detail === undefined ? {} : { reason: entry.detail }),
          startedAt: new Date(Date.now() - entry.durationMs).toISOString(),
          durationMs: entry.durationMs,
          ...(state.profileName === undefined ? {} : { profile: state.profileName }),
          replica: REPLICA,
        })
        .catch(() => {});
    },
  };
}

const REPLICA = `${hostname()}:${process.pid}`;

/** The `_meta` of a client request, without what the gateway must set itself. */
export function forwardedMeta(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const { progressToken: _mapped, ...rest } = meta as JsonObject;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** The error of an unknown (or out-of-scope, or denied: they look the same) resource. */
export function resourceNotFound(uri: string): McpError {
  return new McpError(-32002, 'Resource not found', { uri });
}

/** The error of an unknown (or out-of-scope, or denied) prompt. */
export function promptNotFound(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Prompt ${name} not found`);
}

const PAGE_SIZE = 100;

/**
 * One page of a merged list, by the gateway's own cursor (an offset).
 *
 * @throws McpError InvalidParams for a cursor the gateway did not give
 */
export function page<T>(items: readonly T[], cursor: unknown): { items: T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    const parsed =
      typeof cursor === 'string' && /^g\d{1,9}$/.test(cursor)
        ? Number(cursor.slice(1))
        : Number.NaN;
    if (!Number.isSafeInteger(parsed))
      throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    offset = parsed;
  }
  const next = offset + PAGE_SIZE;
  return {
    items: items.slice(offset, next),
    ...(next < items.length ? { nextCursor: `g${next}` } : {}),
  };
}
