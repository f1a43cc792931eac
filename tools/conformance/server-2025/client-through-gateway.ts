// The suite's client command for a client scenario through the gateway:
// `client-through-gateway <client file of this folder> <server URL>` (the suite appends the
// URL) starts a gateway in front of that URL and runs the plain SDK client against the
// gateway, exiting as the client exits.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatewayInFront } from './gateway.js';

const here = dirname(fileURLToPath(import.meta.url));
const [clientFile, upstreamUrl] = process.argv.slice(-2);
if (clientFile === undefined || upstreamUrl === undefined) {
  throw new Error('usage: client-through-gateway <client file> <server-url>');
}
const gateway = await startGatewayInFront(upstreamUrl, 'off');
const client = spawn(
  process.execPath,
  ['--import', createRequire(import.meta.url).resolve('tsx'), join(here, clientFile), gateway.url],
  { stdio: 'inherit' },
);
const code = await new Promise<number>((resolve) =>
  client.once('exit', (exit) => resolve(exit ?? 1)),
);
await gateway.stop();
process.exit(code);
