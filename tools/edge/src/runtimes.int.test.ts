import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bundle, bundleFile } from './bundle.js';
import { packedProject } from './packed.js';
import { runScenario, type ScenarioAnswers } from './worker/scenario.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** Cloudflare's free plan takes Workers up to 3 MB, gzipped. */
const FREE_PLAN_LIMIT = 3 * 1024 * 1024;

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

async function workerdAnswers(
  worker: Bundle,
): Promise<{ answers: ScenarioAnswers; stderr: string }> {
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
  const child: ChildProcess = spawn(binary, ['serve', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        return { answers: (await response.json()) as ScenarioAnswers, stderr };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`workerd did not answer on port ${port}: ${stderr}`);
  } finally {
    child.kill();
  }
}

// The libraries as a framework author deploys them: core, bridge and hooks as npm would
// publish them (packed, then unpacked into a project), bundled into one Worker, run in
// the real runtimes. Each must answer exactly as Node does.
describe('the libraries on workerd, Deno and Bun', () => {
  let node: ScenarioAnswers;
  let worker: Bundle;
  let script: Bundle;
  let projectDir: string;

  beforeAll(async () => {
    node = await runScenario();
    const project = await packedProject(['core', 'bridge', 'hooks']);
    projectDir = project.dir;
    const entry = (file: string) => join(project.workerDir, file);
    worker = await bundleFile(entry('worker.ts'), 'worker.mjs', undefined, project.nodePaths);
    script = await bundleFile(entry('run.ts'), 'run.mjs', worker.dir, project.nodePaths);
  }, 180_000);

  afterAll(() => {
    if (projectDir !== undefined) rmSync(projectDir, { recursive: true, force: true });
  });

  it('bundles the packed packages, not the workspace', () => {
    const ours = worker.inputs.filter((input) => /@tool-search[/\\]/.test(input));
    expect(ours.length).toBeGreaterThan(0);
    for (const input of ours) expect(input).toContain('tool-search-edge-packed-');
    expect(worker.inputs.filter((input) => /(^|[/\\])packages[/\\]/.test(input))).toEqual([]);
  });

  it('Node finds, repairs and refuses (the answers the runtimes must match)', () => {
    expect(node.codeGeneration).toBe(true);
    expect(JSON.stringify(node.search)).toContain('github_create_issue');
    expect(node.repaired).toMatchObject({ status: 'ok', call: { arguments: { count: 3 } } });
    expect(node.refused).toMatchObject({ code: 'invalid_arguments' });
  });

  it('keeps the Worker within the free plan (3 MB gzipped)', () => {
    console.log(`worker: ${worker.bytes} bytes minified, ${worker.gzipBytes} gzipped`);
    expect(worker.gzipBytes).toBeLessThan(FREE_PLAN_LIMIT);
  });

  it('answers in workerd (no code generation, no Node built-ins) as in Node', async () => {
    const { answers, stderr } = await workerdAnswers(worker);
    expect(answers, stderr).toEqual({ ...node, codeGeneration: false });
  });

  it('answers in Deno as in Node', async () => {
    const deno = require.resolve('deno/bin.cjs');
    const { stdout } = await run(process.execPath, [deno, 'run', '--quiet', script.file], {
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(JSON.parse(stdout)).toEqual(node);
  });

  it('answers in Bun as in Node', async () => {
    const bun = require.resolve('bun/bin/bun.exe');
    const { stdout } = await run(bun, [script.file], { maxBuffer: 16 * 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual(node);
  });
});
