import { describe, expect, it } from 'vitest';

describe('the bridge tool names', () => {
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
