import type { ToolDefinition } from '@tool-search/core';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { describe, expect, it } from 'vitest';
import { createStyle } from './format.js';
import { printPrograms } from './inspect-programs.js';

const tools: ToolDefinition[] = [
  {
    name: 'list_issues',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
    origin: { server: 'github', name: 'list_issues' },
  },
  {
    name: 'create_issue',
    inputSchema: { type: 'object' },
    origin: { server: 'github', name: 'create_issue' },
  },
  { name: 'delete_repo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
];

function printed(raw: Record<string, unknown>, profile?: string): string {
  let text = '';
  const config = parseGatewayConfig({ mcpServers: { github: { command: 'node' } }, ...raw });
  printPrograms(
    config,
    tools,
    profile,
    { write: (chunk: string) => (text += chunk) },
    createStyle(false),
  );
  return text;
}

describe('printPrograms', () => {
  it('says programs are off, and how to turn them on', () => {
    expect(printed({})).toContain('programs: off for sessions without a profile');
    expect(printed({ programs: true, profiles: { ops: { programs: false } } }, 'ops')).toContain(
      'off for profile ops',
    );
  });

  it('prints the policy, the tools programs may call, the limits set and the workers', () => {
    const text = printed({
      programs: {
        enabled: true,
        allow: ['github/create_issue'],
        deny: ['delete_*'],
        limits: { maxCalls: 20 },
        workers: { size: 1 },
      },
    });
    expect(text).toContain('tool_program is served to sessions without a profile');
    expect(text).toContain(
      'policy: read-only tools (readOnlyHint); allow: github/create_issue; deny: delete_*',
    );
    expect(text).toContain('programs may call 2 of 3 tools: list_issues, create_issue');
    expect(text).toMatch(/limits: .*maxCalls 20 \(set\).*maxWrites 5/);
    // A nested call may wait as long as an approval does (120 s by default).
    expect(text).toContain('callTimeoutMs 120000 (fits approval.timeoutMs)');
    expect(text).toContain('workers: 1 kept warm, 4 programs at once, 96 MiB heap each');
  });
});
