import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createGatewayPrograms } from '../gateway/program-gateway.js';
import { parseGatewayConfig } from './parse.js';
import { DEFAULT_PROGRAMS_CONFIG } from './program-schema.js';
import { DEFAULT_APPROVAL_CONFIG } from './schemas.js';

const servers = { mcpServers: { notes: { command: 'node' } } };

function refusal(raw: Record<string, unknown>): ToolSearchError {
  try {
    parseGatewayConfig({ ...servers, ...raw });
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('the programs section of the gateway config', () => {
  it('is off when absent, and on with its defaults as `programs: true`', () => {
    expect(parseGatewayConfig(servers).programs).toBeUndefined();
    expect(DEFAULT_PROGRAMS_CONFIG).toMatchObject({ enabled: false, readOnly: true });
    expect(parseGatewayConfig({ ...servers, programs: true }).programs).toEqual({
      enabled: true,
      readOnly: true,
      readOnlyTools: [],
      allow: [],
      deny: [],
      limits: {},
      workers: {},
    });
  });

  it('accepts `program` for `programs`, snake_case keys, the policy, limits and workers', () => {
    const config = parseGatewayConfig({
      ...servers,
      program: {
        enabled: true,
        read_only: false,
        read_only_tools: ['notes/list_*'],
        allow: ['notes/create_*'],
        deny: ['*delete*'],
        limits: { cpu_time_ms: 2000, maxCalls: 10 },
        workers: { size: 1, max_concurrent_programs: 2 },
      },
      profiles: { quiet: { programs: false } },
    });
    expect(config.programs).toEqual({
      enabled: true,
      readOnly: false,
      readOnlyTools: ['notes/list_*'],
      allow: ['notes/create_*'],
      deny: ['*delete*'],
      limits: { cpuTimeMs: 2000, maxCalls: 10 },
      workers: { size: 1, maxConcurrentPrograms: 2 },
    });
    expect(config.profiles['quiet']?.programs).toBe(false);
  });

  it('refuses unknown limits, keys and bad values, naming the path', () => {
    expect(refusal({ programs: { limits: { cpuSeconds: 2 } } }).message).toContain(
      "programs.limits: unknown key 'cpuSeconds'",
    );
    expect(refusal({ programs: { limits: { maxCalls: 0 } } }).data).toMatchObject({
      field: 'programs.limits.maxCalls',
    });
    expect(refusal({ programs: { enabled: 'yes' } }).data).toMatchObject({
      field: 'programs.enabled',
    });
    expect(refusal({ programs: { allow: 'everything' } }).data).toMatchObject({
      field: 'programs.allow',
    });
    expect(refusal({ programs: { sandbox: 'vm' } }).message).toContain("unknown key 'sandbox'");
    expect(refusal({ profiles: { a: { programs: 'on' } } }).data).toMatchObject({
      field: 'profiles.a.programs',
    });
  });
});

describe('createGatewayPrograms', () => {
  it('is undefined unless the config or a profile turns programs on', () => {
    expect(createGatewayPrograms(undefined, {}, DEFAULT_APPROVAL_CONFIG)).toBeUndefined();
    const only = createGatewayPrograms(
      undefined,
      { ops: { programs: true } },
      DEFAULT_APPROVAL_CONFIG,
    );
    expect(only?.enabledFor({ programs: true })).toBe(true);
    expect(only?.enabledFor(undefined)).toBe(false);
    void only?.close();
  });

  it('lets a nested call wait as long as an approval may, unless the limits say otherwise', async () => {
    const config = parseGatewayConfig({ ...servers, programs: true }).programs;
    const approval = { ...DEFAULT_APPROVAL_CONFIG, timeoutMs: 300_000 };
    const programs = createGatewayPrograms(config, {}, approval)!;
    expect(programs.limits).toMatchObject({ callTimeoutMs: 300_000, wallTimeMs: 300_000 });
    expect(programs.enabledFor({ programs: false })).toBe(false);
    await programs.close();
    const set = parseGatewayConfig({
      ...servers,
      programs: { enabled: true, limits: { callTimeoutMs: 1_000 } },
    }).programs;
    const fixed = createGatewayPrograms(set, {}, approval)!;
    expect(fixed.limits).toMatchObject({ callTimeoutMs: 1_000, wallTimeMs: 120_000 });
    await fixed.close();
  });
});
