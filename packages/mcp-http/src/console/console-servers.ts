// The console's Servers endpoints: a server's recent output, a restart of any server,
// and a reload of the config. Registered with the other console routes (operator
// sign-in, CSRF on every change).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, sendError, sendJson } from './console-http.js';
import type { ConsoleState } from './console-state.js';

/** One console API request (as `ConsoleRequest` of the console's API). */
interface ConsoleRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: ConsoleState;
}

type Handler = (request: ConsoleRequest) => Promise<void>;

const known = (request: ConsoleRequest, name: unknown): name is string =>
  typeof name === 'string' &&
  request.state.options.pool.status().some((server) => server.name === name);

async function logs(request: ConsoleRequest): Promise<void> {
  const { res, url, state } = request;
  const name = url.searchParams.get('server');
  const control = state.options.servers;
  if (control === undefined) return sendError(res, 404, 'This gateway keeps no server output.');
  if (!known(request, name)) return sendError(res, 404, 'No upstream server of that name.');
  sendJson(res, 200, { server: name, lines: control.logs.lines(name) });
}

async function restart(request: ConsoleRequest): Promise<void> {
  const { req, res, state } = request;
  const name = (await readJsonBody(req))?.['server'];
  const control = state.options.servers;
  if (control === undefined) return sendError(res, 404, 'This gateway cannot restart servers.');
  if (!known(request, name)) return sendError(res, 404, 'No upstream server of that name.');
  const outcome = await control.restart(name);
  if (outcome === 'restarted') return sendJson(res, 200, { server: name, outcome });
  sendError(
    res,
    outcome === 'disabled' ? 409 : 502,
    outcome === 'disabled'
      ? `'${name}' is disabled in the config.`
      : `'${name}' did not come back (${outcome}): see its output below.`,
  );
}

async function reload(request: ConsoleRequest): Promise<void> {
  const { req, res, state } = request;
  const body = await readJsonBody(req);
  const control = state.options.servers;
  if (control === undefined) return sendError(res, 404, 'This gateway cannot reload its config.');
  const report = await control.reload({ dryRun: body?.['dryRun'] === true });
  sendJson(res, report.ok ? 200 : 422, report);
}

/** The Servers page's reads (GET), by path below `/console/api/`. */
export const CONSOLE_SERVER_READS: Readonly<Record<string, Handler>> = {
  'servers/logs': logs,
};

/** The Servers page's changes (POST, CSRF-checked), by path below `/console/api/`. */
export const CONSOLE_SERVER_CHANGES: Readonly<Record<string, Handler>> = {
  'servers/restart': restart,
  'servers/reload': reload,
};
