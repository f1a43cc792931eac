// tool_program from the gateway spawned over stdio, as an MCP client runs it, with tool
// search off: the program tool is listed beside every tool, reports progress and asks the
// person at the client about a write through elicitation.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProgramResult } from '@tool-search/code';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients.js';
import { everythingServer, memoryServer, tempWorkspace } from '../__fixtures__/servers.js';

describe('tool_program from the gateway over stdio', () => {
  const workspace = tempWorkspace();
  const questions: string[] = [];
  let client: Client;

  beforeAll(async () => {
    const configPath = join(workspace.directory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          everything: { ...everythingServer(), trusted: true },
          memory: memoryServer(join(workspace.directory, 'memory.jsonl')),
        },
        toolSearch: { enabled: 'off' },
        program: { enabled: true, allow: ['create_entities'] },
        approval: { require: ['create_entities'] },
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL('../__fixtures__/gateway-stdio.mjs', import.meta.url))],
      env: { GATEWAY_CONFIG: configPath },
      stderr: 'pipe',
    });
    client = new Client(
      { name: 'program-stdio-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { decision: 'deny' } };
    });
    await client.connect(transport);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    workspace.cleanup();
  });

  it('lists tool_program after every tool when tool search is off', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('get-sum');
    expect(names).not.toContain('tool_search');
    expect(names.at(-1)).toBe('tool_program');
  });

  it('runs a fan-out with a progress notification per call, and a denied write throws inside', async () => {
    const progress: Progress[] = [];
    const result = (await client.callTool(
      {
        name: 'tool_program',
        arguments: {
          source: `
            const sums = await Promise.all([1, 2, 3].map((a) => tools['get-sum']({ a, b: a })));
            let write;
            try {
              await tools.create_entities({ entities: [{ name: 'Eve', entityType: 'person', observations: [] }] });
              write = 'ran';
            } catch (error) { write = error.status; }
            return { sums: sums.length, write };
          `,
        },
      },
      undefined,
      { onprogress: (update) => void progress.push(update) },
    )) as CallToolResult;
    const program = JSON.parse(textOf(result)) as ProgramResult;
    expect(program.error).toBeUndefined();
    expect(program.result).toEqual({ sums: 3, write: 'denied' });
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('Eve');
    // The SDK client handles a notification a microtask after it reads it and a response at
    // once: when the last update and the result come in one read of the pipe, the result
    // wins (see server.test.ts). What arrives is the updates in order, the last maybe lost.
    const expected = [
      'tools.call("get-sum"): ok',
      'tools.call("get-sum"): ok',
      'tools.call("get-sum"): ok',
      'tools.call("create_entities"): denied by approval \'elicitation\'',
    ];
    const messages = progress.map((update) => update.message);
    expect(messages.length).toBeGreaterThanOrEqual(expected.length - 1);
    expect(messages).toEqual(expected.slice(0, messages.length));
  });
});
