import type { ServerResponse } from 'node:http';
import type { GatewayReadiness } from '@tool-search/mcp';
import type { HttpStep } from './http-chain.js';
import { reply } from './http-reply.js';

/**
 * Answers `GET /healthz` (the process serves: always 200) and `GET /readyz` (200 when
 * ready, 503 otherwise), each with a small JSON body. Neither needs a token: they say
 * nothing about sessions or tools, nor where the store is. The listener checks the Host
 * of `/readyz` as it does the MCP endpoint's.
 *
 * @param res - the response
 * @param path - `/healthz` or `/readyz`
 * @param readiness - how this replica is, for `/readyz`
 * @returns once answered
 * @throws nothing
 */
export async function answerHealth(
  res: ServerResponse,
  path: '/healthz' | '/readyz',
  readiness: () => Promise<GatewayReadiness>,
): Promise<void> {
  let status = 200;
  let body: unknown = { status: 'ok' };
  if (path === '/readyz') {
    try {
      const report = await readiness();
      status = report.ready ? 200 : 503;
      body = { status: report.ready ? 'ready' : 'not ready', ...report };
    } catch {
      // Its message may name an address or a file: not for an unauthenticated probe.
      status = 503;
      body = { status: 'not ready', ready: false, detail: 'the readiness check failed' };
    }
  }
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const alwaysReady = async (): Promise<GatewayReadiness> => ({ ready: true, store: 'ok' });

/**
 * The liveness step: `GET /healthz` says only that the process serves, so a liveness
 * probe gets it by any name (before the host check).
 *
 * @returns the step
 * @throws nothing
 */
export function livenessStep(): HttpStep {
  return async ({ req, res, url }) => {
    if (req.method !== 'GET' || url.pathname !== '/healthz') return false;
    await answerHealth(res, '/healthz', alwaysReady);
    return true;
  };
}

/**
 * The endpoint step: anything but the MCP endpoint and `/readyz` is not found.
 *
 * @param path - the MCP endpoint's path
 * @returns the step
 * @throws nothing
 */
export function endpointStep(path: string): HttpStep {
  return ({ res, url }) => {
    if (url.pathname === path || url.pathname === '/readyz') return false;
    reply(res, 404, `Not found: the MCP endpoint is ${path}`);
    return true;
  };
}

/**
 * The readiness step: `GET /readyz` (after the host check) reports how this replica is.
 *
 * @param readiness - how this replica is @defaultValue always ready
 * @returns the step
 * @throws nothing
 */
export function readinessStep(readiness: (() => Promise<GatewayReadiness>) | undefined): HttpStep {
  return async ({ req, res, url }) => {
    if (url.pathname !== '/readyz') return false;
    if (req.method !== 'GET') reply(res, 405, 'Method not allowed: GET /readyz');
    else await answerHealth(res, '/readyz', readiness ?? alwaysReady);
    return true;
  };
}
