// An upstream that is slow or unreliable in the ways real ones are, for timeouts,
// late starts and retries. Its behaviour is chosen by environment variables:
//
//   SLOW_GO_FILE        before connecting, wait until this file exists (a start that
//                       takes as long as the test wants, with no clock involved)
//   SLOW_START_MS       before connecting, wait this many milliseconds
//   SLOW_COUNTER_FILE   a file counting this server's starts (created when missing)
//   SLOW_FAIL_ON        comma-separated start numbers (1-based, by the counter file)
//                       on which the process exits with an error instead of serving
//
// Tools:
//   slow_echo       { message } answers `slow echo: <message>`
//   slow_progress   { intervalMs, durationMs } sends a progress notification every
//                   intervalMs for durationMs, then answers `done after N updates`
//   slow_silent     never answers (until cancelled)
//   slow_crash      exits the process mid-call
//   slow_starts     how many times the server has started (the counter file)
//   slow_stubborn   { durationMs, answerLate } runs durationMs whatever happens, a
//                   cancellation included; with answerLate it answers a cancelled call
//                   anyway (as servers that ignore notifications/cancelled do)
//   slow_running    how many other calls this process is running right now
//
// Run as a script it serves stdio; `createSlowServer` builds the same server for
// in-process tests (the start, the crash and the raw send come from its caller).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The slow server, unconnected.
 *
 * @param {{ start?: number, crash?: () => void, sendRaw?: (message: object) => Promise<void> }} host
 *   `start` is what `slow_starts` answers; `crash` ends the server mid-call (`slow_crash`);
 *   `sendRaw` sends a JSON-RPC message past the SDK (a cancelled call's late answer)
 */
export function createSlowServer(host = {}) {
  const start = host.start ?? 1;
  const server = new Server(
    { name: 'slow-fixture', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  // Work of a closed server stops (a process's would die with it).
  let closed = false;
  const wakers = new Set();
  server.onclose = () => {
    closed = true;
    for (const wake of wakers) wake();
  };
  const nap = (ms) =>
    new Promise((resolve) => {
      if (closed) return resolve();
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  const object = (properties = {}) => ({ type: 'object', properties });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'slow_echo',
        description: 'Echo a message back (slow fixture).',
        inputSchema: object({ message: { type: 'string' } }),
      },
      {
        name: 'slow_progress',
        description: 'Report progress every intervalMs for durationMs, then answer.',
        inputSchema: object({ intervalMs: { type: 'number' }, durationMs: { type: 'number' } }),
      },
      { name: 'slow_silent', description: 'Never answers.', inputSchema: object() },
      { name: 'slow_crash', description: 'Exits mid-call.', inputSchema: object() },
      { name: 'slow_starts', description: 'How often the server started.', inputSchema: object() },
      {
        name: 'slow_stubborn',
        description: 'Run durationMs, even when cancelled.',
        inputSchema: object({ durationMs: { type: 'number' }, answerLate: { type: 'boolean' } }),
      },
      { name: 'slow_running', description: 'Calls running now.', inputSchema: object() },
    ],
  }));
  let running = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    running += 1;
    try {
      return await answer(request, extra);
    } finally {
      running -= 1;
    }
  });
  async function answer(request, extra) {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'slow_stubborn': {
        await nap(Number(args.durationMs ?? 1000));
        const result = { content: [{ type: 'text', text: 'stubborn done' }] };
        // The SDK drops the answer of a cancelled request: send it by hand.
        if (extra.signal.aborted && args.answerLate === true && !closed) {
          await host.sendRaw?.({ jsonrpc: '2.0', id: extra.requestId, result });
        }
        return result;
      }
      case 'slow_running':
        return { content: [{ type: 'text', text: String(running - 1) }] };
      case 'slow_echo':
        return { content: [{ type: 'text', text: `slow echo: ${args.message ?? ''}` }] };
      case 'slow_progress': {
        const token = request.params._meta?.progressToken;
        const intervalMs = Number(args.intervalMs ?? 100);
        const began = Date.now();
        let updates = 0;
        while (Date.now() - began < Number(args.durationMs ?? 1000)) {
          if (extra.signal.aborted || closed)
            return { content: [{ type: 'text', text: 'cancelled' }] };
          await nap(intervalMs);
          updates += 1;
          if (token !== undefined && !closed) {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: updates, message: `update ${updates}` },
            });
          }
        }
        return { content: [{ type: 'text', text: `done after ${updates} updates` }] };
      }
      case 'slow_silent':
        return new Promise((resolve) => {
          extra.signal.addEventListener('abort', () =>
            resolve({ content: [{ type: 'text', text: 'cancelled' }] }),
          );
        });
      case 'slow_crash':
        setTimeout(() => host.crash?.(), 20);
        return new Promise(() => {});
      default:
        return { content: [{ type: 'text', text: String(start) }] };
    }
  }
  return server;
}

async function main() {
  let start = 1;
  const counterFile = process.env.SLOW_COUNTER_FILE;
  if (counterFile) {
    start = (existsSync(counterFile) ? Number(readFileSync(counterFile, 'utf8')) || 0 : 0) + 1;
    writeFileSync(counterFile, String(start));
  }
  const failOn = (process.env.SLOW_FAIL_ON ?? '')
    .split(',')
    .map((entry) => Number(entry.trim()))
    .filter((entry) => entry > 0);
  if (failOn.includes(start)) {
    process.stderr.write(`slow fixture: start ${start} fails on purpose\n`);
    process.exit(1);
  }
  const goFile = process.env.SLOW_GO_FILE;
  if (goFile) {
    while (!existsSync(goFile)) await sleep(20);
  }
  const startMs = Number(process.env.SLOW_START_MS ?? 0);
  if (startMs > 0) await sleep(startMs);

  const transport = new StdioServerTransport();
  const server = createSlowServer({
    start,
    crash: () => process.exit(1),
    sendRaw: (message) => transport.send(message),
  });
  await server.connect(transport);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
