// A 2025 stdio server that exits on any request before `initialize`, as servers on some
// SDKs do (rmcp); it writes one line to $SPAWN_LOG each time it starts.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCrashServer } from './crash-server.mjs';

if (process.env.SPAWN_LOG) appendFileSync(process.env.SPAWN_LOG, `${process.pid}\n`);
const input = new PassThrough();
let first = true;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (first) {
    first = false;
    if (JSON.parse(line).method !== 'initialize') {
      process.stderr.write('exit-on-probe fixture: a request before initialize, exiting\n');
      process.exit(1);
    }
  }
  input.write(`${line}\n`);
});
await createCrashServer().connect(new StdioServerTransport(input, process.stdout));
