import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeLinesOf } from './new-user-lines.js';
import { currentNode, nodeCacheFolder } from './node-lines.js';

describe('nodeCacheFolder', () => {
  it('takes TOOL_SEARCH_NODE_CACHE first, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(nodeCacheFolder({ TOOL_SEARCH_NODE_CACHE: '/ci/node', XDG_CACHE_HOME: '/x' })).toBe(
      '/ci/node',
    );
    expect(nodeCacheFolder({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'tool-search', 'node'));
    expect(nodeCacheFolder({})).toMatch(/[/\\]\.cache[/\\]tool-search[/\\]node$/);
  });
});

describe('currentNode', () => {
  it('is the running Node, with nothing to add to the environment', () => {
    expect(currentNode()).toEqual({
      label: `node ${process.versions.node}`,
      execPath: process.execPath,
      env: {},
    });
  });
});

describe('nodeLinesOf', () => {
  it('reads `current` as the running Node and runs a line once however often it is named', async () => {
    const major = process.versions.node.split('.')[0]!;
    const lines = nodeLinesOf(`current, ${major},current`);
    expect(lines.map((line) => line.major)).toEqual([major]);
    expect((await lines[0]!.install).runtime).toEqual(currentNode());
  });
});
