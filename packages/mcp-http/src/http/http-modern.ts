import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { describeError } from '@tool-search/core/internal';
import type { GatewayFeatureChange, GatewayStatelessView, StatelessListen } from '@tool-search/mcp';
import type { HttpPrincipal, HttpStep } from './http-chain.js';
import type { HttpFront } from './http-front.js';
import { readJson } from './http-limits.js';
import { createScopedEventBus } from './http-modern-bus.js';
import { createModernServer } from './http-modern-server.js';
import { reply } from './http-reply.js';

/** What the modern (2026-07-28) leg needs of the gateway. */
export interface ModernHost {
  /** The stateless view of a credential (its profile and principal). */
  view(profile: string | undefined, principal: string, stateKey?: Uint8Array): GatewayStatelessView;
  /** Listens for changes of the upstreams' tools; returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Listens for changes of the upstreams' resources and prompts; returns the unsubscribe. */
  onFeaturesChanged?(listener: (change: GatewayFeatureChange) => void): () => void;
  serverInfo: { name: string; version: string };
  instructions?: string;
}

/** Which eras a listener serves on its endpoint. */
export type HttpEras = 'both' | 'modern' | 'legacy';

/** The modern leg of a listener: its step and its close. */
export interface ModernLeg {
  readonly step: HttpStep;
  /** Ends its listen streams and calls in flight. */
  close(): Promise<void>;
}

/** The JSON-RPC id of a single request body, for errors that keep it. */
function requestIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function answer(
  res: ServerResponse,
  status: number,
  error: { code: number; message: string },
  id: string | number | null,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id }));
}

/** Whether the headers claim a 2026-era request (the body decides when it can be read). */
function claimsModern(req: IncomingMessage): boolean {
  const version = req.headers['mcp-protocol-version'];
  return typeof version === 'string' && version >= '2026';
}

/** Counts the open listen streams, in all and per principal: a flood of them is bounded. */
function createListenCounter(limits: { total: number; perPrincipal: number }) {
  const held = new Map<string, number>();
  let total = 0;
  return {
    /** Takes a place for a stream; undefined when at a cap, else its release. */
    take(principal: string): (() => void) | undefined {
      const mine = held.get(principal) ?? 0;
      if (total >= limits.total || mine >= limits.perPrincipal) return undefined;
      total += 1;
      held.set(principal, mine + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (held.get(principal) ?? 1) - 1;
        if (left === 0) held.delete(principal);
        else held.set(principal, left);
      };
    },
  };
}

/**
 * The upstream side of a listen request: its resource subscriptions kept to the URIs of
 * the credential's scope (an out-of-scope URI is left out of the acknowledgement, as one
 * the server cannot honour) and subscribed upstream until the stream closes. Its scope
 * decides which changes of resources and prompts the stream hears.
 */
async function scopeListen(
  host: ModernHost,
  auth: HttpPrincipal,
  stateKey: Uint8Array | undefined,
  body: unknown,
  res: ServerResponse,
): Promise<StatelessListen | undefined> {
  const params = (body as { params?: { notifications?: Record<string, unknown> } }).params;
  const notifications = params?.notifications;
  if (notifications === undefined || typeof notifications !== 'object') return undefined;
  const asked = notifications['resourceSubscriptions'];
  const uris = Array.isArray(asked)
    ? asked.filter((uri): uri is string => typeof uri === 'string')
    : [];
  const features = host.view(auth.profile, auth.principal, stateKey).features;
  if (features === undefined) {
    if (Array.isArray(asked)) notifications['resourceSubscriptions'] = [];
    return undefined;
  }
  const listen = await features.listen(uris);
  if (Array.isArray(asked)) notifications['resourceSubscriptions'] = listen.uris;
  if (res.destroyed) listen.close();
  else res.once('close', () => listen.close());
  return listen;
}

function authInfoOf(auth: HttpPrincipal): AuthInfo {
  return {
    token: '',
    clientId: auth.principal,
    scopes: [],
    extra: auth.profile === undefined ? {} : { profile: auth.profile },
  };
}

/**
 * The modern leg: a request without a session whose body carries the 2026-07-28
 * envelope (or whose headers claim that revision) is served statelessly by the MCP SDK's
 * `createMcpHandler` (strict: the legacy leg keeps the 2025 clients), on the credential's
 * view of the gateway; any other request goes on to the 2025 steps, its body already read.
 * With `eras: 'modern'` every request without a session is the modern leg's (2025
 * clients are told the supported revision).
 *
 * @param host - the gateway's stateless side
 * @param front - the listener's limits and state
 * @param options.eras - which eras the endpoint serves
 * @param options.ttlMs - how long lists stay fresh
 * @param options.stateKey - the HMAC key of `requestState` (from the operator's tokens, the
 * same on every replica); absent without tokens (the gateway then keeps a random one)
 * @returns the leg
 * @throws nothing
 */
export function createModernLeg(
  host: ModernHost,
  front: HttpFront,
  options: { eras: HttpEras; ttlMs: number; stateKey: Uint8Array | undefined },
): ModernLeg {
  const bus = createScopedEventBus(() => {});
  const handler = createMcpHandler(
    async ({ authInfo }) => {
      const profile = authInfo?.extra?.['profile'];
      const view = host.view(
        typeof profile === 'string' ? profile : undefined,
        authInfo?.clientId ?? '',
        options.stateKey,
      );
      // What discover declares mirrors the servers in the credential's scope.
      const featureCapabilities = await view.features?.capabilities();
      return createModernServer({
        view,
        serverInfo: host.serverInfo,
        ...(host.instructions === undefined ? {} : { instructions: host.instructions }),
        ttlMs: options.ttlMs,
        ...(featureCapabilities === undefined ? {} : { featureCapabilities }),
      });
    },
    {
      legacy: 'reject',
      maxSubscriptions: front.limits.maxSessions,
      bus,
    },
  );
  const unsubscribeTools = host.onToolsChanged(() => handler.notify.toolsChanged());
  const unsubscribeFeatures = host.onFeaturesChanged?.((change) => bus.publishChange(change));
  const unsubscribe = () => {
    unsubscribeTools();
    unsubscribeFeatures?.();
  };
  const serve = toNodeHandler(handler);
  const listens = createListenCounter({
    total: front.limits.maxSessions,
    perPrincipal: front.limits.maxSessionsPerPrincipal,
  });
  const only = options.eras === 'modern';
  const step: HttpStep = async (context) => {
    const { req, res } = context;
    if (typeof req.headers['mcp-session-id'] === 'string' && !only) return false;
    if (req.method !== 'POST') {
      if (!only && !claimsModern(req)) return false;
      answer(res, 405, { code: -32000, message: 'Method not allowed.' }, null, {
        allow: 'POST',
      });
      return true;
    }
    let body: unknown;
    try {
      body = await readJson(req, front.maxBodyBytes);
    } catch (error) {
      if (!only && !claimsModern(req)) {
        // As the 2025 leg always answered it.
        reply(res, 400, `Bad request: ${describeError(error)}`);
        return true;
      }
      answer(res, 400, { code: -32700, message: `Parse error: ${describeError(error)}` }, null);
      return true;
    }
    if (!only && (await isLegacyRequest(await toWebRequest(req, body), body))) {
      context.body = { value: body };
      return false;
    }
    const id = requestIdOf(body);
    if (!front.accepting()) {
      answer(res, 503, { code: -32000, message: 'The gateway is shutting down.' }, id, {
        connection: 'close',
      });
      return true;
    }
    const auth = context.auth!;
    let release: (() => void) | undefined;
    if ((body as { method?: unknown } | null)?.method === 'subscriptions/listen') {
      release = listens.take(auth.principal);
      if (release === undefined) {
        answer(
          res,
          503,
          {
            code: -32603,
            message: `Too many listen streams for ${front.describePrincipal(auth.principal)}: close one and try again.`,
          },
          id,
          { 'retry-after': '5' },
        );
        return true;
      }
      res.once('close', release);
      const scope = await scopeListen(host, auth, options.stateKey, body, res);
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfoOf(auth);
      await bus.withListen(scope, () => serve(req, res, body));
      return true;
    }
    (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfoOf(auth);
    await serve(req, res, body);
    return true;
  };
  return {
    step,
    async close() {
      unsubscribe();
      await handler.close();
    },
  };
}
