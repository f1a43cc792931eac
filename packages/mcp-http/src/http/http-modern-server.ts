import {
  type CallToolResult,
  type ElicitInputParams,
  INVALID_PARAMS,
  inputRequired,
  type ListToolsResult,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  Server,
} from '@modelcontextprotocol/server';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayStatelessView, StatelessCallOutcome } from '@tool-search/mcp';
import { registerModernFeatures } from './http-modern-features.js';

/** How long a modern client may keep `server/discover` and `tools/list` without asking again. */
export const DEFAULT_MODERN_TTL_MS = 60_000;

/** What the modern leg's server of one request is made of. */
export interface ModernServerOptions {
  /** The credential's view of the gateway. */
  view: GatewayStatelessView;
  /** How the gateway introduces itself. */
  serverInfo: { name: string; version: string };
  /** The instructions it gives clients. */
  instructions?: string;
  /** How long lists stay fresh (`ttlMs`); changes come on `subscriptions/listen` too. */
  ttlMs: number;
  /**
   * What the servers in the credential's scope offer beyond tools (the view's
   * `features.capabilities()`); their requests are then served too.
   */
  featureCapabilities?: Record<string, Record<string, unknown>>;
}

/**
 * The 2026-07-28 server of one request (the SDK's `createMcpHandler` makes one per
 * request): `tools/list` and `tools/call` answered by the credential's stateless view of
 * the gateway, and the resources, prompts and completions its scope's servers offer. The SDK adds `resultType`, the cache fields, `server/discover` and the
 * envelope checks.
 *
 * @param options - the view, the identity and the freshness of lists
 * @returns the server, not connected
 * @throws nothing
 */
export function createModernServer(options: ModernServerOptions): Server {
  const { view, ttlMs } = options;
  const server = new Server(options.serverInfo, {
    capabilities: { tools: { listChanged: true }, ...options.featureCapabilities },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    // What discover advertises is the same for every caller of this gateway.
    cacheHints: { 'server/discover': { ttlMs, cacheScope: 'public' } },
  });
  if (view.features !== undefined && options.featureCapabilities !== undefined) {
    registerModernFeatures(server, view.features, options.featureCapabilities, ttlMs);
  }
  server.setRequestHandler('tools/list', async () => {
    const listed = await view.listTools();
    return {
      tools: listed.tools,
      ttlMs,
      cacheScope: listed.cacheScope,
    } as unknown as ListToolsResult;
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const requestState = ctx.mcpReq.requestState();
    const inputResponses = ctx.mcpReq.inputResponses;
    const logLevel = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
      LOG_LEVEL_META_KEY
    ];
    let outcome: StatelessCallOutcome;
    try {
      outcome = await view.callTool(
        {
          name,
          ...(args === undefined ? {} : { arguments: args }),
          ...(_meta === undefined ? {} : { _meta: _meta as Record<string, unknown> }),
        },
        {
          requestId: ctx.mcpReq.id,
          signal: ctx.mcpReq.signal,
          notify: (notification) => ctx.mcpReq.notify(notification as never),
          elicitation: server.getClientCapabilities()?.elicitation !== undefined,
          capabilities: (server.getClientCapabilities() ?? {}) as Record<string, unknown>,
          ...(typeof requestState === 'string' ? { requestState } : {}),
          ...(inputResponses === undefined ? {} : { inputResponses }),
          ...(typeof logLevel === 'string' ? { logLevel } : {}),
        },
      );
    } catch (error) {
      // A forged, expired, replayed or foreign requestState: refused, the call not run.
      if (ToolSearchError.isInstance(error) && error.code === 'invalid_argument') {
        throw new ProtocolError(INVALID_PARAMS, error.message, { reason: 'invalid_request_state' });
      }
      throw error;
    }
    if ('result' in outcome) return outcome.result as unknown as CallToolResult;
    if ('input' in outcome) {
      // An upstream's questions, passed on with the gateway's state around the upstream's.
      return inputRequired(outcome.input as never) as unknown as CallToolResult;
    }
    if ('missingCapabilities' in outcome) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: outcome.missingCapabilities },
        outcome.message,
      );
    }
    const { question } = outcome;
    return inputRequired({
      inputRequests: {
        [outcome.key]: inputRequired.elicit({
          message: question.message,
          requestedSchema: question.requestedSchema,
        } as ElicitInputParams),
      },
      requestState: question.requestState,
    }) as unknown as CallToolResult;
  });
  return server;
}
