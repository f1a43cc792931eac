// The entry of a sandbox worker thread: loads QuickJS's WebAssembly once, then runs one
// program at a time, each in a fresh runtime and context (see guest-run.ts). The host
// terminates the thread when a program outlives its wall limit.
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import { type GuestRun, startGuestRun } from './guest-run.js';
import type { HostMessage } from './protocol.js';

const port = parentPort;
if (port === null) throw new Error('sandbox-worker.js runs only as a worker thread');

const module = await newQuickJSWASMModule();
let current: GuestRun | undefined;

port.on('message', (message: HostMessage) => {
  if (message.type === 'run') current = startGuestRun(module, port, message.source, message.limits);
  else if (message.type === 'reply') current?.reply(message);
});
port.postMessage({ type: 'ready' });
