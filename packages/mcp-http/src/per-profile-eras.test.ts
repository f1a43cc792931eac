import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createFileSignInStore,
  createUpstreamAuthProviders,
  signInToUpstream,
} from '@tool-search/mcp/auth';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { followAsBrowser, type StandIn, startOAuthStandIn } from '@tool-search/mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from './start.js';

const TOKEN = 'per-profile-eras-token-012345678';
const TOKENS = { alice: 'alice-eras-token-0123456789abcd', bob: 'bob-eras-token-0123456789abcdef' };

function textOf(result: unknown): string {
  const parts = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return parts.map((part) => part.text ?? '').join('');
}

describe('a server signed in per profile, reached by the clients of either era', () => {
  let standIn: StandIn;
  let folder: string;
  let gateway: StartedGateway;

  beforeAll(async () => {
    standIn = await startOAuthStandIn();
    folder = await mkdtemp(join(tmpdir(), 'per-profile-eras-'));
    const store = createFileSignInStore(join(folder, 'sign-ins'));
    const auth = { type: 'oauth' as const, perProfile: true };
    for (const person of ['alice', 'bob']) {
      standIn.options.user = person;
      const pages: Promise<number>[] = [];
      await signInToUpstream({
        server: 'docs',
        url: standIn.mcpUrl,
        auth,
        store,
        profile: person,
        onAuthorizationUrl: (url) => {
          pages.push(followAsBrowser(url.href));
        },
      });
      await Promise.all(pages);
    }
    gateway = await startGateway({
      config: parseGatewayConfig({
        mcpServers: { docs: { url: standIn.mcpUrl, auth } },
        profiles: { alice: { token: TOKENS.alice }, bob: { token: TOKENS.bob } },
      }),
      http: { port: 0, token: TOKEN },
      pool: { authProvider: createUpstreamAuthProviders({ store }) },
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await standIn?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a 2026-07-28 client of each profile calls the server as that person (stateless)', async () => {
    for (const person of ['alice', 'bob'] as const) {
      const client = new Client(
        { name: `modern-${person}`, version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(gateway.url!), {
          requestInit: { headers: { authorization: `Bearer ${TOKENS[person]}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect(textOf(result)).toBe(`you are signed in as ${person}`);
        const other = person === 'alice' ? 'bob' : 'alice';
        const refused = await client.callTool({ name: `notes_of_${other}`, arguments: {} });
        expect(refused.isError).toBe(true);
      } finally {
        await client.close();
      }
    }
  });

  it('a 2025 client of each profile calls the server as that person (a session)', async () => {
    for (const person of ['alice', 'bob'] as const) {
      const client = new LegacyClient({ name: `legacy-${person}`, version: '1.0.0' });
      await client.connect(
        new LegacyTransport(new URL(gateway.url!), {
          requestInit: { headers: { authorization: `Bearer ${TOKENS[person]}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect(textOf(result)).toBe(`you are signed in as ${person}`);
        const listed = (await client.listTools()).tools.map((tool) => tool.name);
        expect(listed).toContain(`notes_of_${person}`);
      } finally {
        await client.close();
      }
    }
  });
});
