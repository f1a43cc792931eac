import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta, page, resourceNotFound } from './feature-session.js';
import type { SubscriptionRegistry } from './subscriptions.js';
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
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const { items, nextCursor } = page(mergedResources(session), request.params?.cursor);
    return { resources: items as never, ...(nextCursor === undefined ? {} : { nextCursor }) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    const { items, nextCursor } = page(mergedTemplates(session), request.params?.cursor);
    return {
      resourceTemplates: items as never,
      ...(nextCursor === undefined ? {} : { nextCursor }),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
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
    const meta = forwardedMeta(request.params as JsonObject);
    try {
      const result = await session.hub.request(
        owner,
        'resources/read',
        { uri, ...(meta === undefined ? {} : { _meta: meta }) },
        extra.signal,
      );
      record('ok');
      return result as never;
    } catch (error) {
      record('error', error instanceof Error ? error.message : String(error));
      throw error;
    }
  });
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
