// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings are what these tests are about
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './load.js';
import { parseGatewayConfig } from './parse.js';

function errorOf(run: () => unknown): ToolSearchError {
  try {
    run();
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolSearchError');
}

describe('parseGatewayConfig', () => {
  it('reads the standard mcpServers format with defaults filled in', () => {
    const config = parseGatewayConfig({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] },
        docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
      },
    });
    expect(config.mcpServers).toEqual({
      files: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'server-filesystem', '/tmp'],
        env: {},
        disabled: false,
        trusted: false,
      },
      docs: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer x' },
        disabled: false,
        trusted: false,
      },
      legacy: {
        type: 'sse',
        url: 'http://localhost:3001/sse',
        headers: {},
        disabled: false,
        trusted: false,
      },
    });
    expect(config.limits).toEqual({
      maxDescriptionChars: 10_000,
      maxSchemaBytes: 65_536,
      maxSchemaDepth: 64,
      maxToolBytes: 131_072,
    });
    expect(config.review).toEqual({ file: 'tool-review.json', hold: 'none' });
    expect(config.toolSearch).toEqual({
      enabled: 'auto',
      thresholdPct: 10,
      searchDefaultLimit: 5,
      maxSearchLimit: 20,
    });
    expect(config.approval).toMatchObject({ otherwise: 'allow', fallback: 'deny' });
    expect(config.approval.require).toEqual({ tools: [], toolsets: [], annotations: {} });
    expect(config.guardrails).toEqual({
      deny: { tools: [], toolsets: [] },
      validateArguments: false,
    });
    expect(config.warnings).toEqual([]);
  });

  it('accepts the toolSearch section in snake_case, and warns about what it cannot use', () => {
    const config = parseGatewayConfig({
      mcpServers: {},
      tool_search: { enabled: 'on', threshold_pct: 5, max_search_limit: 'many' },
    });
    expect(config.toolSearch).toMatchObject({ enabled: 'on', thresholdPct: 5, maxSearchLimit: 20 });
    expect(config.warnings.map((warning) => warning.key)).toEqual(['toolSearch.max_search_limit']);
  });

  it('expands ${VAR} and ${VAR:-default} from the given environment', () => {
    const config = parseGatewayConfig(
      {
        mcpServers: {
          github: {
            command: '${HOME_BIN}/github-mcp',
            env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', MODE: '${MODE:-read-only}' },
          },
        },
      },
      { env: { HOME_BIN: '/opt/bin', GITHUB_TOKEN: 'ghp_secret' } },
    );
    expect(config.mcpServers['github']).toMatchObject({
      command: '/opt/bin/github-mcp',
      env: { GITHUB_TOKEN: 'ghp_secret', MODE: 'read-only' },
    });
  });

  it('names the variable and where it is used when it is not set', () => {
    const error = errorOf(() =>
      parseGatewayConfig(
        { mcpServers: { github: { command: 'x', env: { TOKEN: '${GITHUB_TOKEN}' } } } },
        { env: {} },
      ),
    );
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain(
      'mcpServers.github.env.TOKEN: environment variable GITHUB_TOKEN is not set',
    );
    expect(error.data).toEqual({ field: 'mcpServers.github.env.TOKEN' });
  });

  it('names the path of a bad field', () => {
    const error = errorOf(() => parseGatewayConfig({ mcpServers: { github: { command: 42 } } }));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('mcpServers.github.command: expected string, received number');
    expect(errorOf(() => parseGatewayConfig({ mcpServers: { github: {} } })).message).toContain(
      'mcpServers.github.command: expected string',
    );
    expect(
      errorOf(() => parseGatewayConfig({ mcpServers: { a: { url: 'ftp://x' } } })).message,
    ).toContain('mcpServers.a.url: must be an http(s) URL');
    expect(
      errorOf(() => parseGatewayConfig({ mcpServers: { a: { command: 'x', args: 'oops' } } }))
        .message,
    ).toContain('mcpServers.a.args: expected array, received string');
    expect(errorOf(() => parseGatewayConfig({ servers: [] })).message).toContain(
      'mcpServers: expected object, received array',
    );
    expect(errorOf(() => parseGatewayConfig('nope')).message).toContain('(root): expected object');
  });

  it('rejects unknown keys and bad values in its own sections, with the path', () => {
    const message = errorOf(() =>
      parseGatewayConfig({
        mcpServers: {},
        guardrails: { maxArgBytes: 10 },
        approval: { fallback: 'maybe' },
      }),
    ).message;
    expect(message).toContain("guardrails: unknown key 'maxArgBytes'");
    expect(message).toContain('approval.fallback:');
  });

  it('reports the issues of the form a list-or-object value has, or the forms it may take', () => {
    const messageOf = (config: Record<string, unknown>) =>
      errorOf(() => parseGatewayConfig({ mcpServers: {}, ...config })).message;
    expect(messageOf({ approval: { require: { tools: 'write_*' } } })).toContain(
      'approval.require.tools: expected array',
    );
    expect(messageOf({ guardrails: { deny: [5] } })).toContain(
      'guardrails.deny.0: expected string',
    );
    expect(messageOf({ guardrails: { deny: 5 } })).toContain(
      'guardrails.deny: expected a list or an object',
    );
    expect(messageOf({ approval: { autoApprove: { tool: ['x'] } } })).toContain(
      "approval.autoApprove: unknown key 'tool'",
    );
    expect(messageOf({ guardrails: { deny: 5 } })).not.toContain('Invalid input');
  });

  it('ignores unknown top-level keys with a warning (a Claude Desktop config file works as is)', () => {
    const config = parseGatewayConfig({ mcpServers: {}, globalShortcut: 'Ctrl+Space' });
    expect(config.warnings).toEqual([{ key: 'globalShortcut', message: 'unknown key, ignored' }]);
  });

  it('reads toolsets, profiles, pins, guardrails and approval (snake_case accepted)', () => {
    const config = parseGatewayConfig({
      mcpServers: { files: { command: 'x' }, memory: { command: 'y' } },
      toolsets: { readers: { tools: ['read_file'], includes: ['mcp-memory'] } },
      profiles: {
        reader: { enabled_toolsets: ['readers'], token: 'reader-token-0123456789' },
        writer: { disabledToolsets: ['mcp-memory'] },
      },
      pins: { servers: ['memory'], tools: ['read_*'] },
      guardrails: {
        allow: { toolsets: ['mcp-*'] },
        deny: ['delete_*'],
        max_argument_bytes: 4096,
        validate_arguments: true,
      },
      approval: {
        require: { tools: ['write_*'], annotations: { destructiveHint: true } },
        auto_approve: ['read_*'],
        otherwise: 'ask',
        fallback: 'allow',
      },
    });
    expect(config.toolsets).toEqual([
      { name: 'readers', tools: ['read_file'], includes: ['mcp-memory'] },
    ]);
    expect(config.profiles).toEqual({
      reader: { enabledToolsets: ['readers'], token: 'reader-token-0123456789' },
      writer: { disabledToolsets: ['mcp-memory'] },
    });
    expect(config.pins).toEqual({ servers: ['memory'], tools: ['read_*'] });
    expect(config.guardrails).toEqual({
      allow: { tools: [], toolsets: ['mcp-*'] },
      deny: { tools: ['delete_*'], toolsets: [] },
      maxArgumentBytes: 4096,
      validateArguments: true,
    });
    expect(config.approval).toEqual({
      require: { tools: ['write_*'], toolsets: [], annotations: { destructiveHint: true } },
      autoApprove: { tools: ['read_*'], toolsets: [], annotations: {} },
      otherwise: 'ask',
      fallback: 'allow',
      timeoutMs: 120_000,
      maxArgumentChars: 4000,
      oversize: 'deny',
    });
  });

  it('rejects a cycle of toolset includes', () => {
    const error = errorOf(() =>
      parseGatewayConfig({
        mcpServers: {},
        toolsets: { a: { includes: ['b'] }, b: { includes: ['a'] } },
      }),
    );
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/toolsets: .*cycle/i);
  });

  it('rejects references to unknown toolsets and servers, and shared profile tokens', () => {
    const message = errorOf(() =>
      parseGatewayConfig({
        mcpServers: { files: { command: 'x' } },
        profiles: {
          a: { enabledToolsets: ['mcp-github'], token: 'same-token-0123456789' },
          b: { token: 'same-token-0123456789' },
        },
        pins: { servers: ['nope'] },
      }),
    ).message;
    expect(message).toContain("profiles.a.enabledToolsets.0: unknown toolset 'mcp-github'");
    expect(message).toContain("pins.servers.0: unknown server 'nope'");
    expect(message).toContain("profiles.b.token: the same token as profile 'a'");
  });
});

describe('parseGatewayConfig: untrusted upstreams', () => {
  it('reads trusted servers, limits and review (snake_case accepted)', () => {
    const config = parseGatewayConfig({
      mcpServers: {
        mine: { command: 'x', trusted: true },
        theirs: { url: 'https://example.com/mcp', trusted: false },
      },
      limits: { max_description_chars: 2_000, max_schema_bytes: 1_000, max_schema_depth: 8 },
      review: { file: 'reviewed.json', hold: 'new-and-changed' },
    });
    expect(config.mcpServers['mine']).toMatchObject({ trusted: true });
    expect(config.mcpServers['theirs']).toMatchObject({ trusted: false });
    expect(config.limits).toEqual({
      maxDescriptionChars: 2_000,
      maxSchemaBytes: 1_000,
      maxSchemaDepth: 8,
      maxToolBytes: 131_072,
    });
    expect(config.review).toEqual({ file: 'reviewed.json', hold: 'new-and-changed' });
  });

  it('rejects bad limits and review settings with their path', () => {
    const error = errorOf(() =>
      parseGatewayConfig({
        mcpServers: { a: { command: 'x', trusted: 'yes' } },
        limits: { max_description_chars: 10, maxSchemaDepth: 0, maxNames: 1 },
        review: { hold: 'sometimes' },
      }),
    );
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/mcpServers\.a\.trusted: expected boolean/);
    expect(error.message).toMatch(
      /limits\.maxDescriptionChars: Too small: expected number to be >=200/,
    );
    expect(error.message).toMatch(/limits\.maxSchemaDepth/);
    expect(error.message).toMatch(/limits: unknown key 'maxNames'/);
    expect(error.message).toMatch(/review\.hold/);
  });
});

describe('loadGatewayConfig', () => {
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-config-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads a JSON file', async () => {
    const path = join(directory, 'good.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { files: { command: 'x' } } }));
    const config = await loadGatewayConfig(path);
    expect(Object.keys(config.mcpServers)).toEqual(['files']);
    expect(config.review.file).toBe(join(directory, 'tool-review.json'));
  });

  it('names the file and the field when the file is bad', async () => {
    const path = join(directory, 'bad.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { github: { command: ['gh'] } } }));
    await expect(loadGatewayConfig(path)).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining(`in ${path}: mcpServers.github.command: expected string`),
      data: { path, field: 'mcpServers.github.command' },
    });
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{ "mcpServers": ');
    await expect(loadGatewayConfig(broken)).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('is not valid JSON'),
      data: { path: broken },
    });
    await expect(loadGatewayConfig(join(directory, 'missing.json'))).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('Cannot read the gateway config'),
      data: { path: join(directory, 'missing.json') },
    });
  });
});
