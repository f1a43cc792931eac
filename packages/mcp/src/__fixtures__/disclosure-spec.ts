// The spec of the draft MCP catalog methods (tools/catalog, tools/describe, tools/list
// with a query), run over each transport by the disclosure tests.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { MAX_DESCRIBE_NAMES, MAX_QUERY_CHARS } from '../gateway/disclosure-requests.js';
import { fingerprintTool } from '../upstream/review.js';
import { textOf } from './clients.js';

export const FILES_TOKEN = 'files-token-0123456789abcdef';
export const DRAFT = 'tools.progressiveDisclosure';

const entrySchema = z
  .object({
    name: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    schemaHash: z.string(),
  })
  .passthrough();
const catalogSchema = z
  .object({ tools: z.array(entrySchema), nextCursor: z.string().optional() })
  .passthrough();
const toolSchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    inputSchema: z.object({}).passthrough(),
  })
  .passthrough();
const toolsSchema = z.object({ tools: z.array(toolSchema) }).passthrough();

export type Connect = (speaks: boolean) => Promise<Client>;

/** A client that declares the draft (or not), on a fresh transport from `open`. */
export async function clientOn(transport: Transport, speaks: boolean): Promise<Client> {
  const client = new Client(
    { name: 'disclosure-test', version: '1.0.0' },
    { capabilities: speaks ? { experimental: { [DRAFT]: {} } } : {} },
  );
  await client.connect(transport);
  return client;
}

/** The JSON-RPC error a raw request is refused with. */
export async function refusal(client: Client, method: string, params: unknown): Promise<McpError> {
  try {
    await client.request({ method, params } as never, z.unknown());
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error(`${method} was not refused`);
}

const catalogOf = async (client: Client) => {
  const entries: z.output<typeof entrySchema>[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: 'tools/catalog', params: cursor === undefined ? {} : { cursor } } as never,
      catalogSchema,
    );
    entries.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return entries;
};

const describeNames = (client: Client, names: unknown) =>
  client.request({ method: 'tools/describe', params: { names } } as never, toolsSchema);

/** The session scope of the spec: profile `files` sees the filesystem server only. */
export const profiles = { files: { enabledToolsets: ['mcp-filesystem'], token: FILES_TOKEN } };

/** The spec of the draft methods, the same over each transport (a session of profile `files`). */
export function specifyDraftCatalog(connect: () => Connect, workspace: { directory: string }) {
  const clients: Client[] = [];
  let speaking: Client;
  let plain: Client;

  beforeAll(async () => {
    speaking = await connect()(true);
    plain = await connect()(false);
    clients.push(speaking, plain);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  it('advertises both drafts as experimental capabilities', () => {
    const experimental = speaking.getServerCapabilities()?.experimental ?? {};
    expect(Object.keys(experimental)).toEqual([DRAFT, 'tools.filtering']);
  });

  it('serves tools/catalog: short entries of the session scope, each with its schemaHash', async () => {
    const entries = await catalogOf(speaking);
    const names = entries.map((entry) => entry.name);
    expect(names).toContain('list_directory');
    // The memory server's tools belong to another profile: none leaks.
    expect(names).not.toContain('create_entities');
    for (const entry of entries) {
      expect(entry.tags).toContain('mcp-filesystem');
      expect(entry.summary.length).toBeLessThanOrEqual(200);
      expect(entry.schemaHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(entry).not.toHaveProperty('inputSchema');
    }
  });

  it('serves tools/describe: full definitions whose hash is the catalog’s schemaHash', async () => {
    const entries = await catalogOf(speaking);
    const { tools } = await describeNames(speaking, ['read_text_file', 'list_directory']);
    expect(tools.map((tool) => tool.name)).toEqual(['read_text_file', 'list_directory']);
    for (const tool of tools) {
      expect(tool.inputSchema).toHaveProperty('type', 'object');
      const entry = entries.find((candidate) => candidate.name === tool.name);
      expect(fingerprintTool(tool as never)).toBe(entry?.schemaHash);
    }
  });

  it('answers tools/list with a query with the best tools of the scope, full definitions', async () => {
    const { tools } = await speaking.request(
      { method: 'tools/list', params: { query: 'list the contents of a directory' } } as never,
      toolsSchema,
    );
    expect(tools.map((tool) => tool.name)).toContain('list_directory');
    expect(tools.every((tool) => tool.name !== 'create_entities')).toBe(true);
    expect(tools[0]).toHaveProperty('inputSchema');
  });

  it('lists no bridge tools to a client that speaks the draft, and calls a deferred tool by name', async () => {
    const names = (await speaking.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('tool_search');
    const result = (await speaking.callTool({
      name: 'list_directory',
      arguments: { path: workspace.directory },
    })) as CallToolResult;
    expect(textOf(result)).toContain('notes.txt');
  });

  it('leaves a client that does not speak it as it was: the bridge tools', async () => {
    const names = (await plain.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']));
  });

  it('refuses unknown and out-of-scope names alike, with -32602 and data.unknownNames', async () => {
    const long = 'x'.repeat(10_000);
    const error = await refusal(speaking, 'tools/describe', {
      names: ['read_text_file', 'no_such_tool', 'create_entities', long],
    });
    expect(error.code).toBe(-32602);
    const data = error.data as { reason: string; unknownNames: string[] };
    expect(data.reason).toBe('unknown_names');
    expect(data.unknownNames.slice(0, 2)).toEqual(['no_such_tool', 'create_entities']);
    // A long name is echoed cut, never whole.
    expect(data.unknownNames[2]!.length).toBeLessThan(300);
    expect(error.message).not.toContain(long);
  });

  it('refuses oversized and malformed params with -32602, and keeps serving', async () => {
    const tooMany = Array.from({ length: MAX_DESCRIBE_NAMES + 1 }, (_, i) => `tool_${i}`);
    const oversized = await refusal(speaking, 'tools/describe', { names: tooMany });
    expect(oversized.code).toBe(-32602);
    expect(oversized.data).toMatchObject({
      reason: 'too_many_names',
      maxNames: MAX_DESCRIBE_NAMES,
    });
    const malformed: [string, unknown][] = [
      ['tools/describe', { names: 'read_text_file' }],
      ['tools/describe', { names: [] }],
      ['tools/describe', { names: [42] }],
      ['tools/describe', {}],
      ['tools/catalog', { cursor: 'abc' }],
      ['tools/catalog', { cursor: 7 }],
      ['tools/list', { query: '' }],
      ['tools/list', { query: 5 }],
      ['tools/list', { query: 'q'.repeat(MAX_QUERY_CHARS + 1) }],
    ];
    for (const [method, params] of malformed) {
      const error = await refusal(speaking, method, params);
      expect([method, error.code]).toEqual([method, -32602]);
      expect(error.data).toMatchObject({ reason: 'invalid_params' });
    }
    expect((await describeNames(speaking, ['read_text_file'])).tools).toHaveLength(1);
  });
}
