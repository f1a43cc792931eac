import { describe, expect, it } from 'vitest';
import { runClientSuite } from './suite.js';

// The conformance suite 0.1.16's client `auth/*` scenarios against the gateway's upstream
// client (client.ts: `login` as documented, a browser following the printed URL, then
// the pool with the stored sign-in). Each run starts the suite's own authorization and
// MCP servers on loopback.

describe('the conformance suite 0.1.16, client auth scenarios, through the gateway', () => {
  it('passes every check of the auth suite (2025-11-25: discovery, CIMD, DCR, scopes, step-up, retry limit, token endpoint auth, pre-registration)', async () => {
    const run = await runClientSuite(['--suite', 'auth']);
    expect(run.output).toContain('auth/scope-step-up');
    expect({ failed: run.failed, warnings: run.warnings }, run.output).toEqual({
      failed: 0,
      warnings: 0,
    });
    expect(run.passed).toBeGreaterThan(250);
    expect(run.code).toBe(0);
  }, 600_000);

  it('passes the 2025-03-26 back-compat scenarios', async () => {
    const run = await runClientSuite(['--suite', 'backcompat']);
    expect({ failed: run.failed, warnings: run.warnings }, run.output).toEqual({
      failed: 0,
      warnings: 0,
    });
    expect(run.passed).toBeGreaterThan(20);
    expect(run.code).toBe(0);
  }, 300_000);

  it.each([
    'auth/client-credentials-basic',
    'auth/client-credentials-jwt',
    'auth/resource-mismatch',
  ])(
    'passes %s',
    async (scenario) => {
      const run = await runClientSuite(['--scenario', scenario]);
      expect({ failed: run.failed, warnings: run.warnings }, run.output).toEqual({
        failed: 0,
        warnings: 0,
      });
      expect(run.passed).toBeGreaterThan(0);
      expect(run.code).toBe(0);
    },
    120_000,
  );
});

// The 0.2.0-alpha.11 auth scenarios: those whose MCP server speaks 2025-11-25, and those
// whose server is 2026-07-28 only (the upstream client negotiates the era: SDK v2).
describe('the conformance suite 0.2.0-alpha.11, client auth scenarios, through the gateway', () => {
  it.each([
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
    'auth/basic-cimd',
    'auth/client-credentials-basic',
    // 2026-07-28 servers:
    'auth/iss-supported',
    'auth/iss-not-advertised',
    'auth/authorization-server-migration',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
  ])(
    'passes %s',
    async (scenario) => {
      const run = await runClientSuite(['--scenario', scenario], '0.2.0-alpha.11');
      expect({ failed: run.failed, warnings: run.warnings }, run.output).toEqual({
        failed: 0,
        warnings: 0,
      });
      expect(run.passed).toBeGreaterThan(0);
      expect(run.code).toBe(0);
    },
    120_000,
  );
});
