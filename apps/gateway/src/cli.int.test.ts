import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, GATEWAY_CONFIG } from './__fixtures__/paths.js';
import { runCli } from './__fixtures__/run.js';

describe.concurrent('tool-search-gateway (command line)', () => {
  it('prints its usage with --help and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['demo', 'serve', 'search', 'inspect', 'recorded-server', 'audit']) {
      expect(run.stdout).toContain(command);
    }
  });

  it('refuses audit without --store, and with a store that is not Redis, with exit code 2', async () => {
    const missing = await runCli(['audit']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('audit needs --store');
    const memory = await runCli(['audit', '--store', 'memory']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain('a shared store');
  });

  it('prints the usage of one command with <command> --help', async () => {
    const run = await runCli(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--context-window');
  });

  it('exits 2 with the usage on an unknown flag', async () => {
    const run = await runCli(['search', 'x', '--config', GATEWAY_CONFIG, '--bogus']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--bogus'/);
    expect(run.stderr).toContain('Usage: tool-search-gateway search');
  });

  it('exits 2 with the usage on an unknown command', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown command 'frobnicate'/);
    expect(run.stderr).toContain('Usage:');
  });

  it('exits 2 on a bad flag value or a missing --config', async () => {
    const port = await runCli([
      'serve',
      '--config',
      GATEWAY_CONFIG,
      '--transport',
      'http',
      '--port',
      'eighty',
    ]);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port must be a whole number/);
    const transport = await runCli(['serve', '--config', GATEWAY_CONFIG, '--transport', 'pigeon']);
    expect(transport.code).toBe(2);
    const missing = await runCli(['inspect']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/inspect needs --config <file>/);
  });
});

describe.concurrent('bad config files', () => {
  const bad = join(FIXTURES, 'bad-command.json');

  it.each([
    ['serve', ['serve', '--config', bad]],
    ['search', ['search', 'issue', '--config', bad]],
    ['inspect', ['inspect', '--config', bad]],
  ])('%s exits 2 and names the path of the bad field', async (_name, args) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mcpServers.github.command');
    expect(run.stderr).toContain('bad-command.json');
    expect(run.stdout).toBe('');
  });

  it('names a nested field of the gateway sections', async () => {
    const run = await runCli(['inspect', '--config', join(FIXTURES, 'bad-profile.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('profiles.reader.token: must be at least 16 characters');
  });

  it('exits 2 on a file that is missing or not JSON', async () => {
    const missing = await runCli(['inspect', '--config', join(FIXTURES, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    const notJson = await runCli(['inspect', '--config', join(FIXTURES, 'paths.ts')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not valid JSON/);
  });

  it('refuses HTTP on a non-loopback address without a token, before starting any server', async () => {
    const run = await runCli([
      'serve',
      '--config',
      GATEWAY_CONFIG,
      '--transport',
      'http',
      '--host',
      '0.0.0.0',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Refusing to serve HTTP on 0\.0\.0\.0 without a bearer token/);
  });

  it('exits 2 on an unknown profile, naming the profiles the file defines', async () => {
    const run = await runCli(['search', 'x', '--config', GATEWAY_CONFIG, '--profile', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown profile 'nope'.*'chat'/);
  });
});
