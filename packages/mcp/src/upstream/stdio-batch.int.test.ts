import type { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServer } from '../__fixtures__/servers.js';
import { batchStdioWrites } from './stdio-batch.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A real server-everything over stdio, its writes counted as they reach the pipe. */
async function connectCounted(batch: boolean) {
  const server = everythingServer();
  const transport = new StdioClientTransport({ ...server, stderr: 'ignore' });
  const client = new Client({ name: 'stdio-batch-test', version: '0.0.0' });
  clients.push(client);
  await client.connect(transport);
  if (batch) batchStdioWrites(transport);
  const stdin = (transport as unknown as { _process: { stdin: Writable } })._process.stdin;
  const writes = { count: 0 };
  // What the stream hands the pipe: one `_write` per chunk, or one `_writev` per batch.
  const internal = stdin as unknown as {
    _write: (...args: unknown[]) => unknown;
    _writev?: (...args: unknown[]) => unknown;
  };
  const write = internal._write.bind(stdin);
  internal._write = (...args) => {
    writes.count += 1;
    return write(...args);
  };
  if (internal._writev !== undefined) {
    const writev = internal._writev.bind(stdin);
    internal._writev = (...args) => {
      writes.count += 1;
      return writev(...args);
    };
  }
  return { client, writes };
}

async function echoAll(client: Client, count: number) {
  const messages = Array.from({ length: count }, (_, index) => `message ${index}`);
  const results = await Promise.all(
    messages.map((message) =>
      client.request({ method: 'tools/call', params: { name: 'echo', arguments: { message } } }),
    ),
  );
  return { messages, texts: results.map((result) => (result.content[0] as { text: string }).text) };
}

describe('batchStdioWrites', () => {
  it('sends the calls of one turn as one write, each answered with its own result', async () => {
    const { client, writes } = await connectCounted(true);
    const { messages, texts } = await echoAll(client, 20);
    expect(texts).toEqual(messages.map((message) => `Echo: ${message}`));
    expect(writes.count).toBe(1);
    // The next turn's calls go out too (the stream was uncorked).
    const again = await echoAll(client, 3);
    expect(again.texts).toEqual(again.messages.map((message) => `Echo: ${message}`));
    expect(writes.count).toBe(2);
  });

  it('without it, each call is a write of its own', async () => {
    const { client, writes } = await connectCounted(false);
    const { messages, texts } = await echoAll(client, 5);
    expect(texts).toEqual(messages.map((message) => `Echo: ${message}`));
    expect(writes.count).toBe(5);
  });

  it('leaves a transport alone when its child cannot be reached', () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    const send = transport.send;
    batchStdioWrites(transport);
    expect(transport.send).toBe(send);
  });
});
