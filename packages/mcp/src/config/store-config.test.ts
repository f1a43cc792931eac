import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './parse.js';

describe('parseGatewayConfig: store', () => {
  it('takes memory or a Redis URL, and leaves the store out when the config names none', () => {
    expect(parseGatewayConfig({ mcpServers: {}, store: 'redis://cache:6379/2' }).store).toBe(
      'redis://cache:6379/2',
    );
    expect(parseGatewayConfig({ mcpServers: {}, store: 'memory' }).store).toBe('memory');
    expect(parseGatewayConfig({ mcpServers: {} }).store).toBeUndefined();
  });

  it('refuses any other store with invalid_config naming the field', () => {
    expect(() => parseGatewayConfig({ mcpServers: {}, store: 'postgres://db' })).toThrow(
      /store: expected 'memory' or a redis:\/\/host:port\[\/db\] URL, received 'postgres:\/\/db'/,
    );
    expect(() => parseGatewayConfig({ mcpServers: {}, store: 6379 })).toThrow(/store: expected/);
  });
});
