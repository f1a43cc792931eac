// The conformance suite's client for its `auth/*` scenarios: the gateway's own upstream
// client, driven through the documented flow. Run as `conformance client --command
// "<node> <tsx> client.ts"`: the suite appends the MCP server's URL and names the scenario
// in MCP_CONFORMANCE_SCENARIO (its credentials, if any, in MCP_CONFORMANCE_CONTEXT).
//
// - an authorization code scenario: `login` (signInToUpstream, what `tool-search-gateway
//   login` runs) prints "Open this URL to sign in: <url>", and this script, as the person's
//   browser, opens it and follows the redirect to the loopback port; then the gateway's
//   upstream pool (createUpstreamPool with the stored sign-ins, what `serve` runs) lists
//   the tools and calls `test-tool`. A call refused for sign-in (a step-up) is answered as
//   an operator would: login again, then call again.
// - a client credentials scenario: a machine account's entry; no login, the pool gets its
//   token itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUpstreamPool } from '@tool-search/mcp';
import {
  createFileSignInStore,
  createUpstreamAuthProviders,
  signInToUpstream,
  type UpstreamAuthConfig,
} from '@tool-search/mcp/auth';
import { followAsBrowser } from '@tool-search/mcp/testing';

/** The Client ID Metadata Document URL the suite's CIMD scenarios expect. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const SERVER = 'conformance';

interface Context {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

function authOf(scenario: string, context: Context): UpstreamAuthConfig {
  if (scenario.startsWith('auth/client-credentials')) {
    return {
      type: 'client_credentials',
      clientId: context.client_id ?? '',
      ...(context.private_key_pem === undefined
        ? { clientSecret: context.client_secret ?? '' }
        : {
            privateKeyJwt: {
              privateKey: context.private_key_pem,
              algorithm: context.signing_algorithm ?? 'ES256',
            },
          }),
    };
  }
  return {
    type: 'oauth',
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(context.client_id === undefined ? {} : { clientId: context.client_id }),
    ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
  };
}

async function main(): Promise<void> {
  const url = process.argv.at(-1) ?? '';
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const raw = process.env['MCP_CONFORMANCE_CONTEXT'];
  const context = (raw ? JSON.parse(raw) : {}) as Context;
  const folder = mkdtempSync(join(tmpdir(), 'conformance-client-auth-'));
  const store = createFileSignInStore(join(folder, 'sign-ins'));
  const auth = authOf(scenario, context);
  const login = async () => {
    if (auth.type !== 'oauth') return;
    const pages: Promise<number>[] = [];
    await signInToUpstream({
      server: SERVER,
      url,
      auth,
      store,
      timeoutMs: 20_000,
      onAuthorizationUrl: (authorizationUrl) => {
        process.stdout.write(`Open this URL to sign in: ${authorizationUrl.href}\n`);
        pages.push(followAsBrowser(authorizationUrl.href));
      },
    });
    await Promise.all(pages);
  };
  const callThroughPool = async () => {
    const pool = createUpstreamPool(
      { mcpServers: { [SERVER]: { type: 'streamable-http', url, auth } } },
      { reconnect: false, authProvider: createUpstreamAuthProviders({ store }) },
    );
    try {
      const [status] = await pool.start();
      if (status?.state !== 'ready') throw new Error(status?.error ?? 'the server did not connect');
      const tool = pool.tools().find((each) => each.name.endsWith('test-tool'));
      if (tool === undefined) return undefined;
      return await pool.callTool(tool.name, {});
    } finally {
      await pool.close();
    }
  };
  try {
    await login();
    let result = await callThroughPool();
    // A step-up: the call says the server needs sign-in (more scopes); the operator logs in again.
    for (let round = 0; round < 2 && result?.isError && auth.type === 'oauth'; round += 1) {
      const text = JSON.stringify(result.content);
      if (!text.includes('needs sign-in')) break;
      await login();
      result = await callThroughPool();
    }
    if (result?.isError) throw new Error(`test-tool failed: ${JSON.stringify(result.content)}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `client-auth: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
