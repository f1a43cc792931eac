import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the hostile HTTP upstream answers. */
export type HostileHttpMode =
  /** `server/discover` answers garbage; `initialize` is refused (-32022): no era works. */
  | 'garbage'
  /** The first probe finds a 2026 server; from then on it is a strict 2025 server. */
  | 'flip';

const LEGACY_VERSION = '2025-11-25';

/**
 * A hand-written JSON-RPC stand-in on loopback (this process) that misbehaves about the
 * era. As a 2025 server it is strict: a request that names the 2026-07-28 revision in its
 * `MCP-Protocol-Version` header is refused with 400, as 2025 servers do.
 *
 * @param mode - see {@link HostileHttpMode}
 * @returns its URL, the methods it was sent, and `close`
 */
export async function serveHostileHttp(mode: HostileHttpMode) {
  const methods: string[] = [];
  let probes = 0;
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      let message: { id?: number | string; method?: string };
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const method = message.method ?? '';
      methods.push(method);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const result = (value: unknown) =>
        reply(200, { jsonrpc: '2.0', id: message.id, result: value });
      const error = (status: number, code: number, text: string, data?: unknown) =>
        reply(status, { jsonrpc: '2.0', id: message.id, error: { code, message: text, data } });
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (mode === 'garbage') {
        if (method === 'server/discover') return result('garbage');
        return error(400, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'] });
      }
      if (method === 'server/discover') {
        probes += 1;
        if (probes === 1) {
          return result({
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: 'private',
            resultType: 'complete',
          });
        }
        return error(200, -32601, 'Method not found');
      }
      if (req.headers['mcp-protocol-version'] === '2026-07-28') {
        return error(400, -32600, 'Bad Request: Unsupported protocol version');
      }
      if (method === 'initialize') {
        return result({
          protocolVersion: LEGACY_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'flipper', version: '1.0.0' },
        });
      }
      if (method === 'tools/list') {
        return result({
          tools: [{ name: 'legacy_tool', inputSchema: { type: 'object', properties: {} } }],
        });
      }
      if (method === 'tools/call')
        return result({ content: [{ type: 'text', text: 'legacy ok' }] });
      return error(200, -32601, 'Method not found');
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    methods,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
