import { parseGatewayConfig } from '@tool-search/mcp/config';
import { describe, expect, it } from 'vitest';

describe('parseGatewayConfig: the console, approval.via and operator profiles', () => {
  it('reads them, and leaves them out when absent', () => {
    const config = parseGatewayConfig({
      mcpServers: {},
      console: { enabled: true },
      approval: { via: 'elicitation-or-console' },
      profiles: { ops: { token: 'operator-token-0123456789', operator: true } },
    });
    expect(config.console).toEqual({ enabled: true, callDetails: false });
    expect(config.approval.via).toBe('elicitation-or-console');
    expect(config.profiles['ops']?.operator).toBe(true);
    const plain = parseGatewayConfig({ mcpServers: {} });
    expect(plain.console).toBeUndefined();
    expect(plain.approval.via).toBeUndefined();
    expect(plain.warnings).toEqual([]);
  });

  it('names the path of a bad value', () => {
    expect(() => parseGatewayConfig({ mcpServers: {}, approval: { via: 'email' } })).toThrow(
      /approval\.via/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, console: { enabled: 'yes' } })).toThrow(
      /console\.enabled/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, console: { port: 1 } })).toThrow(/console/);
    expect(() =>
      parseGatewayConfig({ mcpServers: {}, profiles: { ops: { operator: 'true' } } }),
    ).toThrow(/profiles\.ops\.operator/);
  });
});
