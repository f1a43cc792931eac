import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

// A local authorization server and an MCP server that requires its bearer token, on one
// loopback listener: enough of OAuth 2.1 (RFC 9728 and 8414 discovery, RFC 7591
// registration, authorization code with PKCE S256, refresh, RFC 8707 `resource`, RFC 9207
// `iss`) to prove the gateway's client, with switches for hostile answers.

/** How the stand-in misbehaves (all off by default). */
export interface StandInOptions {
  /** The AS metadata names this issuer instead of its own URL. */
  metadataIssuer?: string;
  /** The protected resource metadata names this resource instead of the MCP URL. */
  resource?: string;
  /** The token endpoint answers garbage, or only after this many ms. */
  token?: 'ok' | 'garbage' | { delayMs: number };
  /** The redirect carries this `state` instead of the one asked for. */
  redirectState?: string;
  /** The redirect carries this `iss` (default: the issuer; `null`: none). */
  redirectIss?: string | null;
  /** Seconds an access token lives. @defaultValue 3600 */
  accessTtlSeconds?: number;
  /** The MCP endpoint answers 401 to every token (a 401 loop). */
  alwaysUnauthorized?: boolean;
  /** Scopes in the 401's `WWW-Authenticate`. */
  challengeScope?: string;
  /**
   * Who the next authorization signs in as (a person at the sign-in page). With a user, the
   * MCP server answers `whoami` with `you are signed in as <user>` and lists one more tool,
   * `notes_of_<user>`, for that user's tokens only. @defaultValue none (one anonymous user)
   */
  user?: string;
}

/** A running stand-in. */
export interface StandIn {
  /** The MCP endpoint (requires the bearer). */
  mcpUrl: string;
  /** The authorization server's issuer URL. */
  issuer: string;
  /** Every access and refresh token issued, to grep outputs for. */
  issued: string[];
  /** Requests by path, e.g. `/token`. */
  hits: Map<string, number>;
  /** The last authorization request's parameters. */
  lastAuthorize?: URLSearchParams;
  /** The last token request's parameters. */
  lastToken?: URLSearchParams;
  /** Refused from now on: every refresh token (refresh_token grants fail with invalid_grant). */
  refuseRefresh(): void;
  /** Every access token issued so far stops working (the next request gets 401). */
  expireAccessTokens(): void;
  /** Switches a behaviour while running. */
  options: StandInOptions;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function protectedServer(user: string | undefined): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  const text = user === undefined ? 'you are signed in' : `you are signed in as ${user}`;
  server.registerTool(
    'whoami',
    { description: 'Says who the token belongs to.', inputSchema: { note: z.string().optional() } },
    async () => ({ content: [{ type: 'text', text }] }),
  );
  if (user !== undefined) {
    server.registerTool(
      `notes_of_${user}`,
      { description: `Reads the notes of ${user}.`, inputSchema: {} },
      async () => ({ content: [{ type: 'text', text: `the notes of ${user}` }] }),
    );
  }
  return server;
}

/**
 * Starts a local OAuth 2.1 authorization server and an MCP server that requires its bearer
 * token (one tool, `whoami`) on a free loopback port: for tests of sign-in. Its switches
 * make it hostile (another issuer, another resource, a wrong `state` or `iss`, a token
 * endpoint that answers garbage or slowly, a 401 to every token).
 *
 * @param options - its misbehaviours
 * @returns the running stand-in (`mcpUrl` is the endpoint to configure)
 * @throws the socket's error when it cannot listen
 */
export async function startOAuthStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const codes = new Map<
    string,
    {
      challenge: string;
      redirectUri: string;
      clientId: string;
      resource: string | null;
      scope: string | null;
      user: string | undefined;
    }
  >();
  const access = new Map<string, number>(); // token -> expiry (epoch ms)
  const refresh = new Set<string>();
  const users = new Map<string, string>(); // token -> the user it was issued to
  const clients = new Map<string, { redirectUris: string[] }>();
  let refuseRefresh = false;
  const hits = new Map<string, number>();
  const issued: string[] = [];

  const mint = (
    user: string | undefined,
  ): {
    access_token: string;
    refresh_token: string;
    token_type: string;
    expires_in: number;
    scope?: string;
  } => {
    const ttl = standIn.options.accessTtlSeconds ?? 3600;
    const accessToken = `at-${randomBytes(18).toString('base64url')}`;
    const refreshToken = `rt-${randomBytes(18).toString('base64url')}`;
    access.set(accessToken, Date.now() + ttl * 1000);
    refresh.add(refreshToken);
    if (user !== undefined) {
      users.set(accessToken, user);
      users.set(refreshToken, user);
    }
    issued.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: ttl,
    };
  };

  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', base);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const o = standIn.options;
    try {
      if (
        url.pathname === '/.well-known/oauth-protected-resource/mcp' ||
        url.pathname === '/.well-known/oauth-protected-resource'
      ) {
        json(response, 200, {
          resource: o.resource ?? `${base}/mcp`,
          authorization_servers: [base],
          scopes_supported: ['tools.read'],
        });
        return;
      }
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        json(response, 200, {
          issuer: o.metadataIssuer ?? base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: [
            'none',
            'client_secret_basic',
            'client_secret_post',
          ],
          authorization_response_iss_parameter_supported: true,
        });
        return;
      }
      if (url.pathname === '/register' && request.method === 'POST') {
        const body = JSON.parse(await readBody(request)) as { redirect_uris: string[] };
        const clientId = `client-${randomBytes(6).toString('hex')}`;
        clients.set(clientId, { redirectUris: body.redirect_uris });
        json(response, 201, { ...body, client_id: clientId, token_endpoint_auth_method: 'none' });
        return;
      }
      if (url.pathname === '/authorize') {
        const params = url.searchParams;
        standIn.lastAuthorize = params;
        const clientId = params.get('client_id') ?? '';
        const redirectUri = params.get('redirect_uri') ?? '';
        const client = clients.get(clientId);
        if (
          !client?.redirectUris.includes(redirectUri) ||
          params.get('code_challenge_method') !== 'S256'
        ) {
          response.writeHead(400).end('bad authorization request');
          return;
        }
        const code = `code-${randomBytes(12).toString('hex')}`;
        codes.set(code, {
          challenge: params.get('code_challenge') ?? '',
          redirectUri,
          clientId,
          resource: params.get('resource'),
          scope: params.get('scope'),
          user: o.user,
        });
        const target = new URL(redirectUri);
        target.searchParams.set('code', code);
        target.searchParams.set('state', o.redirectState ?? params.get('state') ?? '');
        const iss = o.redirectIss === undefined ? base : o.redirectIss;
        if (iss !== null) target.searchParams.set('iss', iss);
        response.writeHead(302, { location: target.href }).end();
        return;
      }
      if (url.pathname === '/token' && request.method === 'POST') {
        const params = new URLSearchParams(await readBody(request));
        standIn.lastToken = params;
        const behaviour = o.token ?? 'ok';
        if (typeof behaviour === 'object')
          await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
        if (behaviour === 'garbage') {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"access_tok');
          return;
        }
        if (params.get('grant_type') === 'authorization_code') {
          const entry = codes.get(params.get('code') ?? '');
          codes.delete(params.get('code') ?? '');
          const verifier = params.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (
            !entry ||
            entry.challenge !== challenge ||
            entry.redirectUri !== params.get('redirect_uri')
          ) {
            json(response, 400, { error: 'invalid_grant' });
            return;
          }
          json(response, 200, mint(entry.user));
          return;
        }
        if (params.get('grant_type') === 'refresh_token') {
          const token = params.get('refresh_token') ?? '';
          if (refuseRefresh || !refresh.has(token)) {
            json(response, 400, {
              error: 'invalid_grant',
              error_description: 'refresh token refused',
            });
            return;
          }
          refresh.delete(token);
          json(response, 200, mint(users.get(token)));
          return;
        }
        json(response, 400, { error: 'unsupported_grant_type' });
        return;
      }
      if (url.pathname === '/mcp') {
        const header = request.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7) : '';
        const expiry = access.get(token);
        if (o.alwaysUnauthorized || expiry === undefined || expiry < Date.now()) {
          const scope = o.challengeScope ? `, scope="${o.challengeScope}"` : '';
          response
            .writeHead(401, {
              'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${scope}`,
              'content-type': 'application/json',
            })
            .end('{"error":"invalid_token"}');
          return;
        }
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        const server = protectedServer(users.get(token));
        response.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request, response);
        return;
      }
      response.writeHead(404).end('not found');
    } catch (error) {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const standIn: StandIn = {
    mcpUrl: `${base}/mcp`,
    issuer: base,
    issued,
    hits,
    options,
    refuseRefresh() {
      refuseRefresh = true;
    },
    expireAccessTokens() {
      for (const token of access.keys()) access.set(token, 0);
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return standIn;
}

/**
 * Acts as the person's browser: opens the authorization URL and follows the redirect
 * back to the gateway's loopback port.
 *
 * @param url - the authorization URL the gateway printed
 * @returns the status of the last page (200 when the gateway took the sign-in)
 * @throws the fetch's error when a page cannot be reached
 */
export async function followAsBrowser(url: string): Promise<number> {
  let next = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (response.status < 300 || response.status >= 400 || location === null)
      return response.status;
    next = new URL(location, next).href;
  }
  return 0;
}
