import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from './format.js';
import { printArgumentChecks, skippedKeywordLine } from './inspect-arguments.js';

function printed(tools: ToolDefinition[]): string {
  let text = '';
  printArgumentChecks(tools, { write: (chunk: string) => (text += chunk) }, createStyle(false));
  return text;
}

describe('printArgumentChecks', () => {
  it('names each keyword a tool leaves unchecked, with its pointer and why, and a schema that cannot be checked', () => {
    const text = printed([
      { name: 'fine', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      {
        name: 'fs_read',
        inputSchema: {
          type: 'object',
          properties: {
            path: { type: 'string', pattern: '^(?!/etc)' },
            limit: { type: 'number', exclusiveMaximum: true },
          },
        },
      },
      { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
    ]);
    expect(text).toContain('argument checks');
    expect(text).toContain('fs_read');
    expect(text).toContain('pattern at /properties/path/pattern');
    expect(text).toContain('exclusiveMaximum at /properties/limit/exclusiveMaximum');
    expect(text).toContain('broken');
    expect(text).not.toContain('fine');
  });

  it('prints nothing when every schema is checked whole', () => {
    expect(printed([{ name: 'fine', inputSchema: { type: 'object' } }])).toBe('');
  });
});

describe('skippedKeywordLine', () => {
  it('is one warning line naming the tool, keyword, pointer, cause and reason, with control characters made safe', () => {
    const line = skippedKeywordLine({
      tool: 'evil\u001b[2Jtool',
      keyword: 'anyOf',
      pointer: '/$defs/node/anyOf',
      cause: 'budget',
      reason: 'it overran',
    });
    expect(line).toMatch(
      /^warning: argument checks of 'evil.*tool' leave 'anyOf' at \/\$defs\/node\/anyOf unchecked \(budget\): it overran\n$/,
    );
    expect(line).not.toContain('\u001b');
  });
});
