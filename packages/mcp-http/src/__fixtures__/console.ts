import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type InProcessEntry, inProcessServer } from '../../../mcp/src/__fixtures__/in-process.js';

/**
 * An in-process upstream for the console's tests: `lookup` answers `found <key>`, or an
 * error result (`isError`) for the key `missing`; `note_write` keeps a note (a write).
 * Its name for tools may carry markup, to check that the console shows it as text.
 */
export function consoleUpstream(
  options: { toolPrefix?: string; description?: string } = {},
): InProcessEntry {
  const prefix = options.toolPrefix ?? '';
  return inProcessServer(() => {
    const server = new McpServer({ name: 'console-upstream', version: '1.0.0' });
    server.registerTool(
      `${prefix}lookup`,
      {
        description: options.description ?? 'Look a key up in the directory.',
        inputSchema: { key: z.string().describe('the key'), limit: z.number().int().optional() },
        annotations: { readOnlyHint: true },
      },
      async ({ key }) =>
        key === 'missing'
          ? { isError: true, content: [{ type: 'text', text: `no entry <b>${key}</b>` }] }
          : { content: [{ type: 'text', text: `found ${key}` }] },
    );
    server.registerTool(
      `${prefix}note_write`,
      {
        description: 'Write a note.',
        inputSchema: { text: z.string(), pinned: z.boolean().optional() },
        annotations: { destructiveHint: true },
      },
      async ({ text }) => ({ content: [{ type: 'text', text: `noted ${text}` }] }),
    );
    return server;
  });
}

/** A signed-in console session: GETs and CSRF-carrying POSTs under `/console/api/`. */
export interface ConsoleSession {
  principal: string;
  get<T = Record<string, unknown>>(path: string): Promise<T>;
  post(path: string, body: unknown): Promise<Response>;
  cookie: string;
  csrf: string;
}

/** Signs in to the console of a gateway at `url` with `token`. */
export async function signInConsole(url: string, token: string): Promise<ConsoleSession> {
  const at = (path: string) => new URL(`/console/api/${path}`, url);
  const login = await fetch(at('login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { principal, csrf } = (await login.json()) as { principal: string; csrf: string };
  return {
    principal,
    cookie,
    csrf,
    async get<T>(path: string) {
      const response = await fetch(at(path), { headers: { cookie } });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      return (await response.json()) as T;
    },
    post: (path, body) =>
      fetch(at(path), {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
      }),
  };
}
