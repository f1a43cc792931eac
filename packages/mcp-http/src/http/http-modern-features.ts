import {
  INVALID_PARAMS,
  inputRequired,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  type ReadResourceResult,
  type Server,
} from '@modelcontextprotocol/server';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayStatelessFeatures } from '@tool-search/mcp';

/** What a request's context says of its relay: the retry's state and answers, the client's capabilities. */
interface RelayContext {
  mcpReq: { requestState(): unknown; inputResponses?: Record<string, unknown> | undefined };
}

function relayContextOf(server: Server, ctx: RelayContext) {
  const requestState = ctx.mcpReq.requestState();
  const inputResponses = ctx.mcpReq.inputResponses;
  return {
    capabilities: (server.getClientCapabilities() ?? {}) as Record<string, unknown>,
    ...(typeof requestState === 'string' ? { requestState } : {}),
    ...(inputResponses === undefined ? {} : { inputResponses }),
  };
}

/**
 * A request whose upstream may ask (`input_required`): the question goes to the client
 * with the gateway's state; a refused state is `-32602`.
 */
async function relayed(
  run: () => Promise<Record<string, unknown>>,
  complete: (result: Record<string, unknown>) => Record<string, unknown> = (result) => result,
): Promise<never> {
  let result: Record<string, unknown>;
  try {
    result = await run();
  } catch (error) {
    if (ToolSearchError.isInstance(error) && error.code === 'invalid_argument') {
      throw new ProtocolError(INVALID_PARAMS, error.message, { reason: 'invalid_request_state' });
    }
    throw error;
  }
  if (result['resultType'] === 'input_required') {
    return inputRequired({
      inputRequests: result['inputRequests'] as never,
      requestState: result['requestState'] as string,
    }) as never;
  }
  return complete(result) as never;
}

/** The `_meta` keys of the 2026-07-28 envelope: the gateway's own upstream, never passed on. */
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';

/** A request's params with the client's own `_meta` (the envelope keys left out). */
function paramsOf(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { _meta: meta, ...rest } = params ?? {};
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return rest;
  const own = Object.fromEntries(
    Object.entries(meta).filter(([key]) => !key.startsWith(ENVELOPE_PREFIX)),
  );
  return Object.keys(own).length === 0 ? rest : { ...rest, _meta: own };
}

/**
 * On the 2026-07-28 leg an unknown resource is `-32602` with the URI in `data`
 * (SEP-2164), where the 2025 leg answers `-32002`: an unknown, out-of-scope and denied URI
 * look the same in each era.
 */
async function notFoundAsInvalidParams<T>(uri: unknown, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === -32002) {
      throw new ProtocolError(INVALID_PARAMS, 'Resource not found', { uri });
    }
    throw error;
  }
}

/** A cache lifetime an upstream gave, when it is one. */
function upstreamTtl(result: Record<string, unknown>): number | undefined {
  const ttl = result['ttlMs'];
  return typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl >= 0 ? ttl : undefined;
}

/**
 * Registers the modern leg's resources, prompts and completions on a request's server,
 * answered by the credential's stateless features (the 2025 leg's code), each list with
 * `ttlMs` and `cacheScope`. Only what `capabilities` declares is registered.
 *
 * @param server - the request's server, made with `capabilities`
 * @param features - the credential's features
 * @param capabilities - what the servers in scope offer
 * @param ttlMs - how long lists stay fresh
 * @throws nothing
 */
export function registerModernFeatures(
  server: Server,
  features: GatewayStatelessFeatures,
  capabilities: Record<string, unknown>,
  ttlMs: number,
): void {
  const { cacheScope } = features;
  const hints = { ttlMs, cacheScope };
  if (capabilities['resources'] !== undefined) {
    server.setRequestHandler(
      'resources/list',
      async (request) =>
        ({
          ...(await features.listResources(request.params?.cursor)),
          ...hints,
        }) as unknown as ListResourcesResult,
    );
    server.setRequestHandler(
      'resources/templates/list',
      async (request) =>
        ({
          ...(await features.listResourceTemplates(request.params?.cursor)),
          ...hints,
        }) as unknown as ListResourceTemplatesResult,
    );
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const params = paramsOf(request.params);
      return relayed(
        () =>
          notFoundAsInvalidParams(params['uri'], () =>
            features.readResource(
              params as never,
              ctx.mcpReq.signal,
              relayContextOf(server, ctx as never),
            ),
          ),
        // A resource's content is as fresh as its server says (not at all when it says nothing).
        (result) =>
          ({
            ...result,
            ttlMs: upstreamTtl(result) ?? 0,
            cacheScope: result['cacheScope'] === 'public' ? cacheScope : 'private',
          }) as unknown as ReadResourceResult,
      );
    });
  }
  if (capabilities['prompts'] !== undefined) {
    server.setRequestHandler(
      'prompts/list',
      async (request) =>
        ({
          ...(await features.listPrompts(request.params?.cursor)),
          ...hints,
        }) as unknown as ListPromptsResult,
    );
    server.setRequestHandler('prompts/get', async (request, ctx) =>
      relayed(() =>
        features.getPrompt(
          paramsOf(request.params) as never,
          ctx.mcpReq.signal,
          relayContextOf(server, ctx as never),
        ),
      ),
    );
  }
  if (capabilities['completions'] !== undefined) {
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const params = paramsOf(request.params);
      const ref = params['ref'] as { uri?: unknown } | undefined;
      return (await notFoundAsInvalidParams(ref?.uri, () =>
        features.complete(params as never, ctx.mcpReq.signal),
      )) as never;
    });
  }
}
