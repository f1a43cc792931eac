// server-everything ships no types; its server factory is imported for in-process tests.
declare module '@modelcontextprotocol/server-everything/dist/server/index.js' {
  import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

  /** The reference server with every feature, unconnected, and what stops its timers. */
  export function createServer(): { server: McpServer; cleanup: (sessionId?: string) => void };
}
