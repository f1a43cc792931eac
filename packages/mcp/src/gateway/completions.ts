import { CompleteRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta } from './feature-session.js';
import { exposedPrompts } from './prompts.js';
import { ownerOfUri } from './resources.js';

const EMPTY = { completion: { values: [], total: 0, hasMore: false } };

/**
 * Serves `completion/complete` of one session, routed by its ref: a prompt's (exposed)
 * name to the prompt's server under its own name; a resource template (or URI) to the
 * server that owns it. A ref outside the scope is refused as an unknown one is.
 *
 * @throws nothing
 */
export function handleCompletions(session: FeatureSession): void {
  session.state.server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref } = request.params;
    let server: string | undefined;
    let upstreamRef: JsonObject = ref as JsonObject;
    if (ref.type === 'ref/prompt') {
      const entry = exposedPrompts(session).find((prompt) => prompt.name === ref.name);
      if (entry === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
      }
      server = entry.server;
      upstreamRef = { ...ref, name: entry.upstreamName };
    } else {
      const uri = ref.uri;
      const templateOwner = session
        .servers()
        .find((features) => features.templates.some((template) => template['uriTemplate'] === uri));
      server =
        templateOwner !== undefined && !session.denied('resources', templateOwner.server, uri)
          ? templateOwner.server
          : ownerOfUri(session, uri);
      if (server === undefined) throw new McpError(-32002, 'Resource not found', { uri });
    }
    if (session.hub.get(server)?.capabilities['completions'] === undefined) return EMPTY;
    const meta = forwardedMeta(request.params as JsonObject);
    const result = await session.hub.request(
      server,
      'completion/complete',
      {
        ...(request.params as JsonObject),
        ref: upstreamRef,
        ...(meta === undefined ? {} : { _meta: meta }),
      },
      extra.signal,
    );
    return result as never;
  });
}
