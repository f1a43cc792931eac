import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta, page, resourceNotFound } from './feature-session.js';
import type { StatelessInput } from './session-call.js';
import type { SubscriptionRegistry } from './subscriptions.js';
import { requestUpstream } from './upstream-request.js';
import { templateMatches } from './uri-template.js';

/**
 * The server of a URI in the session's scope: the first server (config order) that lists
 * it; else the first whose template matches it; else the only server in scope that
 * serves resources. A denied URI, and one of a server out of scope, has none: it looks
 * exactly like an unknown one.
 *
 * @throws nothing
 */
export function ownerOfUri(session: FeatureSession, uri: string): string | undefined {
  const servers = session
    .servers()
    .filter((features) => features.capabilities['resources'] !== undefined);
  const allowed = (server: string) =>
    session.denied('resources', server, uri) ? undefined : server;
  const listing = servers.find((features) =>
    features.resources.some((resource) => resource['uri'] === uri),
  );
  if (listing !== undefined) return allowed(listing.server);
  const matching = servers.find((features) =>
    features.templates.some((template) => templateMatches(template['uriTemplate'], uri)),
  );
  if (matching !== undefined) return allowed(matching.server);
  return servers.length === 1 ? allowed(servers[0]!.server) : undefined;
}

/** The merged resources of the session's scope: the first server listing a URI keeps it. */
function mergedResources(session: FeatureSession): JsonObject[] {
  const seen = new Set<string>();
  const merged: JsonObject[] = [];
  for (const features of session.servers()) {
    for (const resource of features.resources) {
      const uri = resource['uri'] as string;
      if (seen.has(uri) || session.denied('resources', features.server, uri)) continue;
      seen.add(uri);
      merged.push(resource);
    }
  }
  return merged;
}

function mergedTemplates(session: FeatureSession): JsonObject[] {
  const seen = new Set<string>();
  const merged: JsonObject[] = [];
  for (const features of session.servers()) {
    for (const template of features.templates) {
      const key = template['uriTemplate'] as string;
      if (seen.has(key) || session.denied('resources', features.server, key)) continue;
      seen.add(key);
      merged.push(template);
    }
  }
  return merged;
}

/**
 * One page of the merged resources of the session's scope (`resources/list`).
 *
 * @throws McpError InvalidParams for a cursor the gateway did not give
 */
export function listResources(session: FeatureSession, cursor: unknown): JsonObject {
  const { items, nextCursor } = page(mergedResources(session), cursor);
  return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
}

/**
 * One page of the merged resource templates of the session's scope.
 *
 * @throws McpError InvalidParams for a cursor the gateway did not give
 */
export function listResourceTemplates(session: FeatureSession, cursor: unknown): JsonObject {
  const { items, nextCursor } = page(mergedTemplates(session), cursor);
  return { resourceTemplates: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
}

/**
 * Reads a resource from the server that owns its URI in the session's scope, the client's
 * `_meta` sent on; the read lands in the activity feed and the audit trail.
 *
 * @param params - the request's params (`uri`, `_meta`)
 * @param signal - aborts the upstream request
 * @param input - a stateless client's relay of the upstream's `input_required`
 * @throws McpError `-32002` for a URI with no owner in scope (unknown, out of scope or
 * denied alike); the upstream's error
 */
export async function readResource(
  session: FeatureSession,
  params: JsonObject,
  signal?: AbortSignal,
  input?: StatelessInput,
): Promise<JsonObject> {
  const uri = String(params['uri']);
  const began = performance.now();
  const owner = ownerOfUri(session, uri);
  const record = (status: 'ok' | 'error', detail?: string) =>
    session.record({
      kind: 'resource',
      name: uri,
      ...(owner === undefined ? {} : { server: owner }),
      status,
      ...(detail === undefined ? {} : { detail }),
      durationMs: Math.round(performance.now() - began),
    });
  if (owner === undefined) {
    record('error', 'not found in scope');
    throw resourceNotFound(uri);
  }
  const meta = forwardedMeta(params);
  try {
    const result = await requestUpstream(
      session,
      {
        server: owner,
        method: 'resources/read',
        params: { uri, ...(meta === undefined ? {} : { _meta: meta }) },
        target: uri,
        upstreamName: uri,
        arguments: {},
      },
      signal,
      input,
    );
    record('ok');
    return result;
  } catch (error) {
    record('error', error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * Serves `resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe` and `resources/unsubscribe` of one session.
 *
 * @throws nothing
 */
export function handleResources(
  session: FeatureSession,
  subscriptions: SubscriptionRegistry,
): void {
  const { server } = session.state;
  server.setRequestHandler(
    ListResourcesRequestSchema,
    (request) => listResources(session, request.params?.cursor) as never,
  );
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    (request) => listResourceTemplates(session, request.params?.cursor) as never,
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    async (request, extra) =>
      (await readResource(session, request.params as JsonObject, extra.signal)) as never,
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    const owner = ownerOfUri(session, uri);
    if (owner === undefined) throw resourceNotFound(uri);
    await subscriptions.subscribe(session.state.id, owner, uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    await subscriptions.unsubscribe(session.state.id, uri);
    return {};
  });
}
