import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleFile } from './bundle.js';

const require = createRequire(import.meta.url);
const EXAMPLE = fileURLToPath(new URL('../../../docs/examples/edge.ts', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const request = () =>
  new Request('http://localhost/api/agent', {
    method: 'POST',
    body: JSON.stringify({ prompt: 'File an issue about the failing login.' }),
  });

// The guide's example (docs/examples/edge.ts) as deployed: bundled into a Worker and
// served by workerd; its answer must be the one the same handler gives in Node (the
// Vercel edge function is that handler too).
describe("the edge guide's example", () => {
  it('answers in workerd as in Node', async () => {
    const worker = await bundleFile(EXAMPLE, 'worker.mjs');
    // Node runs the same bundle (docs/examples resolve no package from their folder).
    const example = (await import(worker.file)) as {
      answer(request: Request): Promise<Response>;
    };
    const here = await (await example.answer(request())).json();
    expect(here).toEqual({
      text: 'Filed it.',
      calls: ['tool_search', 'tool_describe', 'github_create_issue'],
    });
    const port = await freePort();
    const config = join(worker.dir, 'config.capnp');
    writeFileSync(
      config,
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "2025-09-01",
);
`,
    );
    const binary = (require('workerd') as { default: string }).default;
    const child = spawn(binary, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    try {
      let answer: unknown;
      for (let attempt = 0; attempt < 100 && answer === undefined; attempt++) {
        try {
          const response = await fetch(`http://127.0.0.1:${port}/api/agent`, {
            method: 'POST',
            body: JSON.stringify({ prompt: 'File an issue about the failing login.' }),
          });
          answer = await response.json();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(answer, stderr).toEqual(here);
      console.log(
        `the guide's Worker: ${worker.bytes} bytes minified, ${worker.gzipBytes} gzipped`,
      );
    } finally {
      child.kill();
    }
  });
});
