import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { InProcessEntry } from './in-process.js';

// A published stdio MCP server whose package builds its server at import (no factory to
// call), run on a worker thread of this process: its stdin and stdout are the worker's
// streams, so the real server speaks real stdio framing without a child process.

const require = createRequire(import.meta.url);

/** A client transport to a stdio server script run on a worker thread. */
export class WorkerStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private worker: Worker | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly file: string,
    private readonly options: { argv?: string[]; env?: Record<string, string> } = {},
  ) {}

  async start(): Promise<void> {
    const worker = new Worker(this.file, {
      argv: this.options.argv ?? [],
      env: { ...process.env, ...this.options.env },
      stdin: true,
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    worker.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    worker.stderr.resume();
    worker.on('error', (error) => this.onerror?.(error));
    worker.once('exit', () => {
      this.worker = undefined;
      this.onclose?.();
    });
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.worker?.stdin;
    if (!stdin) throw new Error('Not connected');
    stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }
}

function bin(name: string): string {
  return require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);
}

/** `@modelcontextprotocol/server-memory` with its graph in `file`, on a worker thread. */
export function memoryInProcess(file: string): InProcessEntry {
  return {
    transport: () =>
      new WorkerStdioTransport(bin('server-memory'), { env: { MEMORY_FILE_PATH: file } }),
  };
}

/** `@modelcontextprotocol/server-filesystem` on `directory`, on a worker thread. */
export function filesystemInProcess(directory: string): InProcessEntry {
  return {
    transport: () => new WorkerStdioTransport(bin('server-filesystem'), { argv: [directory] }),
  };
}
