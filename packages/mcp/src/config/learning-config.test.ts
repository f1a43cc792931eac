import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './parse.js';

describe('parseGatewayConfig: learning', () => {
  it('is off when absent, and reads enabled and bounds (snake_case too)', () => {
    expect(parseGatewayConfig({ mcpServers: {} }).learning).toBeUndefined();
    expect(parseGatewayConfig({ mcpServers: {}, learning: {} }).learning).toEqual({
      enabled: false,
    });
    const config = parseGatewayConfig({
      mcpServers: {},
      learning: { enabled: true, token_cap: 2, maxTermsPerTool: 8, window: 4 },
    });
    expect(config.learning).toEqual({ enabled: true, tokenCap: 2, maxTermsPerTool: 8, window: 4 });
    expect(config.warnings).toEqual([]);
  });

  it('names the path of a bad value', () => {
    expect(() => parseGatewayConfig({ mcpServers: {}, learning: { enabled: 'yes' } })).toThrow(
      /learning\.enabled/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, learning: { tokenCap: 0 } })).toThrow(
      /learning\.tokenCap/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, learning: { window: 1.5 } })).toThrow(
      /learning\.window/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, learning: { cap: 1 } })).toThrow(/learning/);
  });
});
