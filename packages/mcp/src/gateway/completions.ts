import { CompleteRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta, resourceNotFound } from './feature-session.js';
import { exposedPrompts } from './prompts.js';
import { ownerOfUri } from './resources.js';

const EMPTY = { completion: { values: [], total: 0, hasMore: false } };

/**
 * Answers `completion/complete`, routed by its ref: a prompt's (exposed) name to the
 * prompt's server under its own name; a resource template (or URI) to the server that
 * owns it. A server that offers no completions answers nothing to complete.
 *
 * @param params - the request's params (`ref`, `argument`, `context`, `_meta`)
 * @param signal - aborts the upstream request
 * @throws McpError InvalidParams for a prompt ref not in scope, `-32002` for a resource
 * ref not in scope (unknown, out of scope or denied alike); the upstream's error
 */
export async function completeRef(
  session: FeatureSession,
  params: JsonObject,
  signal?: AbortSignal,
): Promise<JsonObject> {
  const ref = (params['ref'] ?? {}) as JsonObject;
  let server: string | undefined;
  let upstreamRef: JsonObject = ref;
  if (ref['type'] === 'ref/prompt') {
    const entry = exposedPrompts(session).find((prompt) => prompt.name === ref['name']);
    if (entry === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${String(ref['name'])} not found`);
    }
    server = entry.server;
    upstreamRef = { ...ref, name: entry.upstreamName };
  } else {
    const uri = String(ref['uri']);
    const templateOwner = session
      .servers()
      .find((features) => features.templates.some((template) => template['uriTemplate'] === uri));
    server =
      templateOwner !== undefined && !session.denied('resources', templateOwner.server, uri)
        ? templateOwner.server
        : ownerOfUri(session, uri);
    if (server === undefined) throw resourceNotFound(uri);
  }
  if (session.hub.get(server)?.capabilities['completions'] === undefined) return EMPTY;
  const meta = forwardedMeta(params);
  const { _meta: _client, ...rest } = params;
  return session.hub.request(
    server,
    'completion/complete',
    { ...rest, ref: upstreamRef, ...(meta === undefined ? {} : { _meta: meta }) },
    signal,
  );
}

/**
 * Serves `completion/complete` of one session ({@link completeRef}).
 *
 * @throws nothing
 */
export function handleCompletions(session: FeatureSession): void {
  session.state.server.setRequestHandler(
    CompleteRequestSchema,
    async (request, extra) =>
      (await completeRef(session, request.params as JsonObject, extra.signal)) as never,
  );
}
