import { readFileSync } from 'node:fs';
import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { capDescription, checkToolLimits, DEFAULT_UPSTREAM_LIMITS, measureJson } from './limits.js';

const CATALOG = new URL(
  '../../../../apps/gateway/data/mcp-real/combined-catalog.json',
  import.meta.url,
);
const realTools = JSON.parse(readFileSync(CATALOG, 'utf8')) as ToolDefinition[];

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) node = { type: 'object', properties: { a: node } };
  return node;
}

describe('checkToolLimits', () => {
  it('neither cuts nor refuses any of the 397 real tools with the default limits', () => {
    expect(realTools).toHaveLength(397);
    for (const tool of realTools) {
      const verdict = checkToolLimits(tool, DEFAULT_UPSTREAM_LIMITS);
      expect(verdict).toEqual({ ok: true, tool });
    }
  });

  it('refuses a schema nested 100,000 levels deep without overflowing the stack', () => {
    const verdict = checkToolLimits(
      { name: 'deep', inputSchema: nested(100_000) },
      DEFAULT_UPSTREAM_LIMITS,
    );
    expect(verdict).toEqual({
      ok: false,
      error: expect.stringMatching(/'deep'.*nested deeper than 64 levels/),
    });
  });

  it('refuses a schema over maxSchemaBytes, naming the tool and the limit', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, index) => [`p${index}`, { description: 'x'.repeat(1_000) }]),
    );
    const verdict = checkToolLimits(
      { name: 'big', inputSchema: { type: 'object', properties } },
      DEFAULT_UPSTREAM_LIMITS,
    );
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.error).toMatch(/'big'.*65,536 \(limits\.maxSchemaBytes\)/);
  });

  it('refuses huge annotations through the whole-definition limit', () => {
    const verdict = checkToolLimits(
      { name: 'noisy', inputSchema: {}, annotations: { title: 'x'.repeat(200_000) } },
      DEFAULT_UPSTREAM_LIMITS,
    );
    expect(verdict.ok).toBe(false);
  });

  it('cuts a long description and reports by how much', () => {
    const verdict = checkToolLimits(
      { name: 'long', description: 'y'.repeat(50_000), inputSchema: {} },
      DEFAULT_UPSTREAM_LIMITS,
    );
    expect(verdict.ok && verdict.cut).toEqual({
      name: 'long',
      field: 'description',
      fromChars: 50_000,
      toChars: verdict.ok ? verdict.tool.description!.length : 0,
    });
    expect(verdict.ok && verdict.tool.description!.length).toBeLessThanOrEqual(10_000);
  });
});

describe('capDescription', () => {
  it('keeps a text within the limit as it is, and marks how much of a longer one was cut', () => {
    expect(capDescription('short', 200)).toBe('short');
    const cut = capDescription('z'.repeat(1_000), 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    const kept = cut.indexOf('\n');
    expect(cut.slice(kept)).toBe(`\n[… ${1_000 - kept} more characters cut by the gateway]`);
    expect(capDescription(cut, 200)).toBe(cut);
  });

  it('never splits a surrogate pair', () => {
    for (let shift = 0; shift < 4; shift++) {
      const cut = capDescription(`${'a'.repeat(shift)}${'😀'.repeat(500)}`, 200);
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
    }
  });
});

describe('measureJson', () => {
  it('measures depth and a size that never exceeds the real one', () => {
    const value = { a: [1, 'two', { b: null }], c: 'd' };
    const measure = measureJson(value, { maxDepth: 10, maxChars: 1_000 });
    expect(measure.depth).toBe(3);
    expect(measure.minChars).toBeLessThanOrEqual(JSON.stringify(value).length);
    expect(measure.stopped).toBe(false);
  });
});
