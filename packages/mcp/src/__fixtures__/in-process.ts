import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer as createEverything } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { createChangingServer } from './changing-server.mjs';
import { createCrashServer } from './crash-server.mjs';
import { createHangServer } from './hang-server.mjs';
import { createHostileServer } from './hostile-server.mjs';
import { createMalformedServer } from './malformed-server.mjs';
import { createSlowServer } from './slow-server.mjs';

// The fixture servers of the stdio scripts beside this file, built in this process and
// reached through the MCP SDK's linked in-memory transports: entries of `mcpServers`
// for every test whose subject is not the process. Each connect (a start or a restart
// of the pool) builds a new server, as a new process would be.

/** An in-process entry of `mcpServers`. */
export interface InProcessEntry {
  transport: () => Transport;
}

interface Connectable {
  connect(transport: Transport): Promise<void>;
}

/**
 * An entry whose every connect builds a server with `build` and links it to the pool's
 * client. The server starts once `ready` settles (the client's messages wait for it).
 */
export function inProcessServer(
  build: (link: InMemoryTransport, start: number) => Connectable,
  options: { ready?: Promise<unknown>; failOn?: readonly number[] } = {},
): InProcessEntry {
  let starts = 0;
  return {
    transport: () => {
      starts += 1;
      const start = starts;
      if (options.failOn?.includes(start)) {
        throw new Error(`fixture: start ${start} fails on purpose`);
      }
      const [client, server] = InMemoryTransport.createLinkedPair();
      void Promise.resolve(options.ready)
        .then(() => build(server, start).connect(server))
        .catch(() => client.close());
      return client;
    },
  };
}

/** `@modelcontextprotocol/server-everything`, the reference server, in-process. */
export function everythingInProcess(): InProcessEntry {
  return inProcessServer(() => {
    const { server, cleanup } = createEverything();
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      cleanup();
    };
    return server;
  });
}

/** `changing-server.mjs` in-process (`env`: `FIXTURE_PAGE_SIZE`). */
export function changingInProcess(env: Record<string, string> = {}): InProcessEntry {
  return inProcessServer(() => createChangingServer(env));
}

/** `crash-server.mjs` in-process: its `crash` tool closes the link mid-call. */
export function crashInProcess(): InProcessEntry {
  return inProcessServer((link) => createCrashServer({ crash: () => void link.close() }));
}

/** A server that cannot be reached: every connect fails (as a command that is not there). */
export function unreachableInProcess(): InProcessEntry {
  return {
    transport: () => {
      throw new Error('fixture: this server cannot be reached');
    },
  };
}

/** `hang-server.mjs` in-process. */
export function hangInProcess(): InProcessEntry {
  return inProcessServer(() => createHangServer());
}

/** `malformed-server.mjs` in-process. */
export function malformedInProcess(): InProcessEntry {
  return inProcessServer(() => createMalformedServer());
}

/**
 * `hostile-server.mjs` in-process.
 *
 * @param modes - the behaviours switched on at start: `squat`, `pin`, `escape`, `huge`, `poison`
 * @param env - more of its variables, e.g. `HOSTILE_SQUAT`, `HOSTILE_STATE_FILE`
 */
export function hostileInProcess(
  modes: readonly string[] = [],
  env: Record<string, string> = {},
): InProcessEntry {
  return inProcessServer(() => createHostileServer({ HOSTILE_MODES: modes.join(','), ...env }));
}

/**
 * `slow-server.mjs` in-process: `slow_starts` counts this entry's connects, `slow_crash`
 * closes the link (as the process's exit closes its pipes).
 *
 * @param options.failOn - the starts (1-based) that fail instead of serving
 * @param options.ready - the server starts once this settles (a late start)
 */
export function slowInProcess(
  options: { failOn?: readonly number[]; ready?: Promise<unknown> } = {},
): InProcessEntry {
  return inProcessServer(
    (link, start) =>
      createSlowServer({
        start,
        crash: () => void link.close(),
        sendRaw: (message: object) => link.send(message as JSONRPCMessage),
      }),
    options,
  );
}
