import { createMCPClient } from '@ai-sdk/mcp';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../__fixtures__/gateway.js';

const MODERN = '2026-07-28';

function textOf(result: unknown): string {
  const parts = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return parts.map((part) => part.text ?? '').join('');
}

describe('modern clients of the gateway', () => {
  let setup: TestGateway;
  const seen: { method: string; version: string | undefined }[] = [];

  beforeAll(async () => {
    setup = await startTestGateway();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  /** A fetch that notes what era each request speaks. */
  const tracing: typeof fetch = async (input, init) => {
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    const headers = new Headers(init?.headers);
    seen.push({
      method: body.method ?? '',
      version: headers.get('mcp-protocol-version') ?? undefined,
    });
    return fetch(input, init);
  };

  it('serves @ai-sdk/mcp with its default settings on the 2026-07-28 revision', async () => {
    seen.length = 0;
    const client = await createMCPClient({
      transport: {
        type: 'http',
        url: setup.listener.url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        fetch: tracing,
      },
    });
    try {
      expect(seen[0]?.method).toBe('server/discover');
      expect(seen.some((request) => request.method === 'initialize')).toBe(false);
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual(expect.arrayContaining(['tool_search', 'tool_call']));
      // The options the AI SDK hands a tool's execute (this test calls it as the SDK would).
      const options = { toolCallId: 'call-1', messages: [] } as never;
      const found = await tools['tool_search']!.execute!({ query: 'echo a message' }, options);
      expect(textOf(found)).toContain('echo');
      const echoed = await tools['tool_call']!.execute!(
        { name: 'everything_echo', arguments: { message: 'from the AI SDK' } },
        options,
      );
      expect(textOf(echoed)).toContain('from the AI SDK');
      expect(
        seen.filter((request) => request.method === 'tools/call').map((r) => r.version),
      ).toEqual([MODERN, MODERN]);
    } finally {
      await client.close();
    }
  });

  it('lets a v2 client that declares elicitation answer an approval and run the call', async () => {
    const client = new Client(
      { name: 'modern-elicitation', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: MODERN } },
        capabilities: { elicitation: { form: {} } },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { decision: 'allow-once' } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(setup.listener.url), {
        requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      }),
    );
    try {
      const path = `${setup.workspace.directory}/by-client.txt`;
      const result = await client.callTool({
        name: 'tool_call',
        arguments: { name: 'write_file', arguments: { path, content: 'approved' } },
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('write_file');
      expect(result.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });
});
