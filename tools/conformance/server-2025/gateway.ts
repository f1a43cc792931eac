/**
 * The gateway in front of one upstream URL, on Streamable HTTP on a free loopback port
 * (no token: the suite sends none), with tool search off or on its default.
 */
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { startGateway } from '@tool-search/mcp-http';
import type { RunningServer } from './suite.js';

/** How tool search is set for a run: `off`, or absent from the config (`auto`). */
export type ToolSearchSetting = 'off' | 'default';

/**
 * Starts a gateway whose one upstream (`everything`) is the server at `upstreamUrl`.
 *
 * @throws what `startGateway` throws
 */
export async function startGatewayInFront(
  upstreamUrl: string,
  toolSearch: ToolSearchSetting,
): Promise<RunningServer> {
  const config = parseGatewayConfig({
    mcpServers: {
      // The suite's sampling scenario needs it: the default asks the client first.
      // The suite's sampling scenario: the default (`ask`) would ask its client first.
      everything: { type: 'streamable-http', url: upstreamUrl, sampling: 'allow' },
    },
    ...(toolSearch === 'off' ? { toolSearch: { enabled: 'off' } } : {}),
  });
  const gateway = await startGateway({ config, http: { host: '127.0.0.1', port: 0 } });
  await gateway.ready();
  return {
    url: gateway.url!.replace('127.0.0.1', 'localhost'),
    stop: async () => {
      await gateway.close();
    },
  };
}
