import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The runtime names each import path of the package exports, sorted. A line here is an
// API decision: a name added or dropped by accident fails this test, and one added on
// purpose changes this list in the same commit, with a changeset.
const PUBLIC_SURFACE: Record<string, string[]> = {
  '.': [
    'BRIDGE_TOOL_NAMES',
    'MAX_BATCH_CALLS',
    'MAX_DESCRIBE_NAMES',
    'MAX_SEARCH_QUERIES',
    'TOOL_CALL',
    'TOOL_DESCRIBE',
    'TOOL_SEARCH',
    'assembleTools',
    'batchErrors',
    'bridgeErrors',
    'createAssemblyCache',
    'createBridgeTelemetry',
    'createBridgeTools',
    'echoName',
    'handleBridgeCall',
    'isBridgeToolName',
    'resolveUnderlyingCall',
    'unwrapToolCall',
  ],
};

interface Manifest {
  exports: Record<string, string | { types: string; default: string }>;
}

// Every import path of the exports map, read from the source its build entry compiles
// from (dist/x.js <- src/x.ts): the test needs no build and is never stale.
async function runtimeSurface(): Promise<Record<string, string[]>> {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as Manifest;
  const surface: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target.default.replace(/^\.\/dist\//, './').replace(/\.js$/, '.ts');
    const module = (await import(fileURLToPath(new URL(source, import.meta.url)))) as object;
    surface[subpath] = Object.keys(module).sort();
  }
  return surface;
}

describe('the public surface of @tool-search/bridge', () => {
  it('exports exactly the pinned runtime names from each import path', async () => {
    expect(await runtimeSurface()).toEqual(PUBLIC_SURFACE);
  });

  it('exports the bridge tool names core reserves, as the one home users import them from', async () => {
    const bridge = await import('./index.js');
    const core = await import('@tool-search/core/internal');
    expect(bridge.BRIDGE_TOOL_NAMES).toBe(core.BRIDGE_TOOL_NAMES);
    expect([...bridge.BRIDGE_TOOL_NAMES]).toEqual([
      bridge.TOOL_SEARCH,
      bridge.TOOL_DESCRIBE,
      bridge.TOOL_CALL,
    ]);
  });
});
