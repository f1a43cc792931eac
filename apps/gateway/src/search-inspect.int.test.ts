import { describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, UNMATCHED_RULES_CONFIG } from './__fixtures__/paths.js';
import { runCli } from './__fixtures__/run.js';

function rowsOf(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^\s+\d+\s/.test(line));
}

describe.concurrent('search', () => {
  it('prints ranked matches over the tools of every server of the config', async () => {
    const run = await runCli(['search', 'open a new issue', '--config', GATEWAY_CONFIG]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/over 72 tools of 4 servers/);
    const rows = rowsOf(run.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(5);
    // rank, score, tool, server, description
    for (const row of rows)
      expect(row).toMatch(/^\s+\d+\s+\d+\.\d\d\s+\S+\s+(filesystem|github|notion|slack)\s/);
    expect(rows.some((row) => /\screate_issue\s+github\s/.test(row))).toBe(true);
  });

  it('honours --limit', async () => {
    const run = await runCli(['search', 'file', '--config', GATEWAY_CONFIG, '--limit', '2']);
    expect(run.code).toBe(0);
    expect(rowsOf(run.stdout)).toHaveLength(2);
  });

  it('searches only the toolsets of --profile', async () => {
    const run = await runCli([
      'search',
      'post a message',
      '--config',
      GATEWAY_CONFIG,
      '--profile',
      'chat',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/over 8 tools of 1 servers/);
    for (const row of rowsOf(run.stdout)) expect(row).toMatch(/slack/);
  });
});

describe.concurrent('inspect', () => {
  it('prints tools and estimated tokens per server, and the activation decision per context window', async () => {
    const run = await runCli(['inspect', '--config', GATEWAY_CONFIG]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const line = (start: string) =>
      run.stdout.split('\n').find((text) => text.trimStart().startsWith(start)) ?? '';
    expect(line('filesystem')).toMatch(/filesystem\s+ready\s+14\s+[\d,]+\s+1\b/);
    expect(line('github')).toMatch(/github\s+ready\s+26\s+[\d,]+/);
    expect(line('notion')).toMatch(/notion\s+ready\s+24\s+[\d,]+/);
    expect(line('slack')).toMatch(/slack\s+ready\s+8\s+[\d,]+/);
    expect(line('total')).toMatch(/total\s+72\s+[\d,]+\s+1\b/);
    // What each server offers besides tools, with its resources, templates and prompts.
    expect(run.stdout).toMatch(/server\s+offers besides tools\s+resources\s+templates\s+prompts/);
    expect(run.stdout.split('\n').filter((text) => /^\s*filesystem\s/.test(text))).toHaveLength(2);
    // ~27k deferrable tokens: active at 32k, 128k and 200k (10%), passthrough at 1M.
    expect(line('32k')).toMatch(/3,200\s+active\s+above-threshold\s+4\b/);
    expect(line('128k')).toMatch(/12,800\s+active/);
    expect(line('200k')).toMatch(/20,000\s+active/);
    expect(line('1M')).toMatch(/100,000\s+passthrough\s+below-threshold\s+72\b/);
    expect(run.stdout).toContain(
      'rules: every pattern of guardrails, approval and pins matches a tool',
    );
  });

  it('lists the patterns of guardrails, approval and pins that match no tool', async () => {
    const run = await runCli(['inspect', '--config', UNMATCHED_RULES_CONFIG]);
    expect(run.code).toBe(0);
    const section = run.stdout.slice(run.stdout.indexOf('rules:'));
    expect(section).toMatch(/^rules: 2 patterns match no tool/);
    expect(section).toContain(
      "warning: guardrails.deny.tools[1] 'github/delete_*' matches no tool",
    );
    expect(section).toContain("warning: approval.require.tools[1] 'write_file' matches no tool");
    expect(section).not.toContain('github/merge_*');
    expect(section).not.toContain('github/get_issue');
  });

  it('reports a server that fails to start and keeps the others', async () => {
    const run = await runCli(['inspect', '--config', GATEWAY_CONFIG], {
      env: { GATEWAY_TEST_FILESYSTEM: '/nonexistent/server.js' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/filesystem\s+failed/);
    expect(run.stdout).toMatch(/github\s+ready\s+26/);
  });
});
