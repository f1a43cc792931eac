import { type CallToolResult, type ListToolsResult, Server } from '@modelcontextprotocol/server';
import type { GatewayStatelessView } from '@tool-search/mcp';

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
}

/**
 * The 2026-07-28 server of one request (the SDK's `createMcpHandler` makes one per
 * request): `tools/list` and `tools/call` answered by the credential's stateless view of
 * the gateway. The SDK adds `resultType`, the cache fields, `server/discover` and the
 * envelope checks.
 *
 * @param options - the view, the identity and the freshness of lists
 * @returns the server, not connected
 * @throws nothing
 */
export function createModernServer(options: ModernServerOptions): Server {
  const { view, ttlMs } = options;
  const server = new Server(options.serverInfo, {
    capabilities: { tools: { listChanged: true } },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    // What discover advertises is the same for every caller of this gateway.
    cacheHints: { 'server/discover': { ttlMs, cacheScope: 'public' } },
  });
  server.setRequestHandler('tools/list', async () => {
    const listed = await view.listTools();
    return {
      tools: listed.tools,
      ttlMs,
      cacheScope: listed.cacheScope,
    } as unknown as ListToolsResult;
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const result = await view.callTool(
      {
        name: request.params.name,
        ...(request.params.arguments === undefined ? {} : { arguments: request.params.arguments }),
        ...(request.params._meta === undefined
          ? {}
          : { _meta: request.params._meta as Record<string, unknown> }),
      },
      {
        requestId: ctx.mcpReq.id,
        signal: ctx.mcpReq.signal,
        notify: (notification) => ctx.mcpReq.notify(notification as never),
      },
    );
    return result as unknown as CallToolResult;
  });
  return server;
}
