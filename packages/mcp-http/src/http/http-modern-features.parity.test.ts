// Parity of the two eras for resources and prompts: the same read or get, with the same
// token, meets the same outcome through a 2025 session and a 2026-07-28 request (the same
// contents or messages; refused in both, and recorded alike in the activity feed).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FeatureGateway,
  startFeatureGateway,
} from '../../../mcp/src/__fixtures__/feature-gateway.js';
import { listenGatewayHttp } from './http.js';
import type { GatewayHttpListener } from './http-options.js';

const ADMIN = 'admin-token-0123456789abcdef';
const ALPHA = 'alpha-token-0123456789abcdef';
const MODERN = '2026-07-28';

type Json = Record<string, unknown>;

/** Listed, shared by two servers, template-matched, denied, out of scope for alphaOnly, unknown. */
const URIS = [
  'shared://one',
  'alpha://own',
  'beta://own',
  'alpha://items/7',
  'beta://items/3',
  'beta://items/9',
  'nowhere://x',
];
const PROMPTS = ['alpha_review', 'beta_review', 'review', 'nope'];

type Request =
  | { kind: 'read'; token: string; uri: string }
  | { kind: 'get'; token: string; name: string; topic: string };

const requestArbitrary: fc.Arbitrary<Request> = fc.oneof(
  fc.record({
    kind: fc.constant('read' as const),
    token: fc.constantFrom(ADMIN, ALPHA),
    uri: fc.constantFrom(...URIS),
  }),
  fc.record({
    kind: fc.constant('get' as const),
    token: fc.constantFrom(ADMIN, ALPHA),
    name: fc.constantFrom(...PROMPTS),
    topic: fc.string({ maxLength: 12 }),
  }),
);

/** What a request came to: its payload, or that it was refused. */
type Outcome = { ok: unknown } | { refused: true };

describe('a resource read or prompt get meets the same outcome in both eras', () => {
  let setup: FeatureGateway;
  let listener: GatewayHttpListener;
  const legacy = new Map<string, Client>();

  beforeAll(async () => {
    setup = await startFeatureGateway({
      config: {
        profiles: { alphaOnly: { enabledToolsets: ['mcp-alpha'], token: ALPHA } },
        guardrails: { resources: { deny: ['beta/beta://items/9'] }, prompts: { deny: [] } },
      },
    });
    listener = await listenGatewayHttp(setup.gateway, { token: ADMIN });
    for (const token of [ADMIN, ALPHA]) {
      const client = new Client({ name: 'parity-legacy', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(listener.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      legacy.set(token, client);
    }
  }, 30_000);

  afterAll(async () => {
    for (const client of legacy.values()) await client.close();
    await listener?.close();
    await setup?.close();
  });

  const through2025 = async (request: Request): Promise<Outcome> => {
    const client = legacy.get(request.token)!;
    try {
      return request.kind === 'read'
        ? { ok: (await client.readResource({ uri: request.uri })).contents }
        : {
            ok: (
              await client.getPrompt({ name: request.name, arguments: { topic: request.topic } })
            ).messages,
          };
    } catch {
      return { refused: true };
    }
  };

  let id = 0;
  const through2026 = async (request: Request): Promise<Outcome> => {
    id += 1;
    const [method, params] =
      request.kind === 'read'
        ? ['resources/read', { uri: request.uri }]
        : ['prompts/get', { name: request.name, arguments: { topic: request.topic } }];
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${request.token}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        'mcp-name': request.kind === 'read' ? request.uri : request.name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'parity-modern', version: '1.0.0' },
          },
        },
      }),
    });
    const answer = (await response.json()) as { result?: Json; error?: Json };
    if (answer.result === undefined) return { refused: true };
    return { ok: request.kind === 'read' ? answer.result['contents'] : answer.result['messages'] };
  };

  it('holds for any token, URI and prompt', async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (request) => {
        const before = setup.activity.length;
        const old = await through2025(request);
        const recordedOld = setup.activity.slice(before).map((entry) => entry.status);
        const middle = setup.activity.length;
        const modern = await through2026(request);
        const recordedModern = setup.activity.slice(middle).map((entry) => entry.status);
        expect(modern).toEqual(old);
        expect(recordedModern).toEqual(recordedOld);
      }),
      { numRuns: 60 },
    );
  });
});
