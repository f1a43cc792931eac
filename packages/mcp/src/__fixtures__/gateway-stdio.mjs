// The gateway over stdio, as a client would spawn it: reads the config file named by
// GATEWAY_CONFIG and serves MCP on stdin/stdout (nothing on stderr).
// Runs the built package: the test task builds it first (see ../../turbo.json).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadGatewayConfig } from '../../dist/config/index.js';
import { createGatewayServer, createUpstreamPool } from '../../dist/index.js';

const config = await loadGatewayConfig(process.env.GATEWAY_CONFIG);
const pool = createUpstreamPool(config);
await pool.start();
const gateway = createGatewayServer({
  pool,
  config,
  contextWindow: Number(process.env.GATEWAY_CONTEXT_WINDOW ?? 32_000),
  profile: process.env.GATEWAY_PROFILE || undefined,
});
await gateway.connect(new StdioServerTransport());
const shutdown = async () => {
  await gateway.close();
  await pool.close();
  process.exit(0);
};
process.stdin.once('end', shutdown);
process.once('SIGTERM', shutdown);
