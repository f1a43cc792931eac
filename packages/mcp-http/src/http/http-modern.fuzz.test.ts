import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../__fixtures__/gateway.js';

const MODERN = '2026-07-28';
const METHODS = ['tools/list', 'tools/call', 'server/discover', 'ping', 'initialize', 'nope/x'];

/** A header that agrees with the body, disagrees, is missing, or is junk. */
const headerValue = (agreeing: string) =>
  fc.oneof(
    fc.constant(agreeing),
    fc.constant(undefined),
    fc.constantFrom('2025-11-25', '2026-07-29', 'tools/call', 'x'),
    fc.string({ maxLength: 12 }).filter((text) => /^[\x21-\x7e]*$/.test(text)),
  );

/** A `_meta` that is whole, partial, of the wrong types or absent. */
const metaArbitrary = fc.oneof(
  fc.constant({
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
  }),
  fc.constant({ 'io.modelcontextprotocol/protocolVersion': MODERN }),
  fc.constant({ 'io.modelcontextprotocol/protocolVersion': 42 }),
  fc.constant({
    'io.modelcontextprotocol/protocolVersion': '2099-01-01',
    'io.modelcontextprotocol/clientCapabilities': {},
  }),
  fc.constant(undefined),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

const requestArbitrary = fc.record({
  method: fc.constantFrom(...METHODS),
  id: fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.string({ minLength: 1, maxLength: 8 })),
  meta: metaArbitrary,
  name: fc.constantFrom('tool_search', 'tool_call', 'everything_echo', 'missing'),
  versionHeader: headerValue(MODERN),
  methodHeader: fc.boolean(),
  nameHeader: fc.oneof(fc.constant('same'), fc.constant('other'), fc.constant('none')),
});

describe('the modern leg under hostile requests', () => {
  let setup: TestGateway;

  beforeAll(async () => {
    setup = await startTestGateway();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  it('answers any mix of envelope and headers with one JSON-RPC message, its id kept on errors it can read', async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (sample) => {
        const params: Record<string, unknown> = {
          ...(sample.method === 'tools/call' ? { name: sample.name, arguments: {} } : {}),
          ...(sample.meta === undefined ? {} : { _meta: sample.meta }),
        };
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${ADMIN_TOKEN}`,
        };
        if (sample.versionHeader !== undefined)
          headers['mcp-protocol-version'] = sample.versionHeader;
        if (sample.methodHeader) headers['mcp-method'] = sample.method;
        if (sample.method === 'tools/call' && sample.nameHeader !== 'none') {
          headers['mcp-name'] = sample.nameHeader === 'same' ? sample.name : 'another_tool';
        }
        const response = await fetch(setup.listener.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: sample.id, method: sample.method, params }),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        const data = text.startsWith('{')
          ? text
          : text
              .split('\n')
              .find((line) => line.startsWith('data: '))
              ?.slice(6);
        expect(data, text).toBeDefined();
        const message = JSON.parse(data!) as { id?: unknown; result?: unknown; error?: unknown };
        expect(message.result !== undefined || message.error !== undefined).toBe(true);
        // A request the modern leg took keeps its id; only the 2025 leg's refusals of a
        // request without a session answer `null`, as they always did.
        if (message.id !== sample.id) {
          expect(message.id).toBeNull();
          expect(
            sample.versionHeader === undefined || !sample.versionHeader.startsWith('2026'),
          ).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
