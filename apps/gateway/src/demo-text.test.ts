import { describe, expect, it } from 'vitest';
import { DEMO_PROGRAM, programLine } from './demo-program.js';
import { deferredToolCount, listedToolLabel } from './demo-steps.js';

describe('the demo text', () => {
  it('counts the tools the bridge stands in for without the gateway own tools', () => {
    const listed = ['read_text_file', 'tool_search', 'tool_describe', 'tool_call', 'tool_program'];
    // 400 upstream tools, one of them pinned: 399 deferred, whatever the gateway adds.
    expect(deferredToolCount(400, listed)).toBe(399);
    expect(deferredToolCount(400, listed.slice(0, 4))).toBe(399);
  });

  it('labels only the pinned tools as pinned', () => {
    expect(listedToolLabel('tool_search')).toBe('tool_search');
    expect(listedToolLabel('tool_program')).toBe('tool_program (programs)');
    expect(listedToolLabel('read_text_file')).toBe('read_text_file (pinned)');
  });

  it('prints the program with its indentation', () => {
    const lines = DEMO_PROGRAM.split('\n').map((line) => programLine(line, 100));
    expect(lines).toContain('  env,');
    expect(lines.find((line) => line.includes('found:'))).toMatch(/^ {2}found: /);
    expect(programLine(`    ${'x'.repeat(200)}`, 40)).toMatch(/^ {4}x+…$/);
    expect(programLine('    ', 40)).toBe('');
  });
});
