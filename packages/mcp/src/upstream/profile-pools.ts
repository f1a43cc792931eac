// Connections per profile, for servers whose sign-in is each person's (`auth.perProfile`):
// a profile's calls reach such a server over its own connection, with its own tokens, and
// its view of the pool lists what the server lists for it. Each connection is a pool of
// one server (reconnects, re-lists, limits, review and the era cache as the shared pool
// has them), opened on the profile's first use and closed on reload, restart, shutdown or
// when the bound is reached (the one used least recently, and idle, goes).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { echoName } from '@tool-search/bridge';
import type { ToolDefinition } from '@tool-search/core';
import type { GatewayPins } from '../config/schemas.js';
import { errorResult } from '../tool-result/error-result.js';
import type { EraCache } from './era.js';
import { createExposedTools, type ExposedTools } from './exposed-tools.js';
import { callOnUpstream } from './pool-call.js';
import type { PoolState } from './pool-state.js';
import type {
  UpstreamCallOptions,
  UpstreamPool,
  UpstreamPoolConfig,
  UpstreamPoolOptions,
} from './pool-types.js';
import type { HeldTool, ToolFingerprint } from './review.js';
import {
  LISTED_STATES,
  liveFingerprints,
  signsInPerProfile,
  type Upstream,
} from './upstream-state.js';

const keyOf = (item: ToolFingerprint) => `${item.server}\u0000${item.name}`;

/**
 * A connection that failed for want of a sign-in is opened anew on its profile's next use
 * after this long: a `login` (or the console's sign-in) meanwhile is picked up, and a
 * profile that never signs in costs one refused request this often at most.
 */
const SIGN_IN_RETRY_MS = 2_000;

/** The most profile connections by default, all servers together. */
export const DEFAULT_MAX_PROFILE_CONNECTIONS = 64;

/** Makes a pool (and its state) that shares the parent's era cache. */
export type ChildPoolFactory = (
  config: UpstreamPoolConfig,
  options: UpstreamPoolOptions,
  shared: { eras?: EraCache },
) => { pool: UpstreamPool; state: PoolState };

/** A profile's connection to one server. */
interface ProfileConnection {
  readonly server: string;
  readonly profile: string;
  readonly pool: UpstreamPool;
  readonly state: PoolState;
  readonly started: Promise<unknown>;
  readonly openedAt: number;
  lastUse: number;
  inFlight: number;
  stopListening: () => void;
}

/** The profile connections of one pool. */
export interface ProfileConnections {
  /**
   * The tools a profile sees: its own lists for per-profile servers (once `settle` or a call
   * opened its connections), the shared ones else. Opens nothing.
   */
  view(profile: string): ExposedTools;
  /** Calls a tool of a profile's view. */
  call(
    profile: string,
    name: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  /** Opens the profile's connections (when not yet) and waits for their first attempt. */
  settle(profile: string): Promise<void>;
  /**
   * What the profiles' connections list beyond the shared ones, for the review: their
   * fingerprints (a key the shared connections have is theirs), and their held tools.
   */
  review(): { fingerprints: ToolFingerprint[]; held: Map<string, HeldTool[]> };
  /** Closes every profile's connection to a server (it was reloaded or restarted). */
  closeServer(server: string): Promise<void>;
  /** New pins: the views are derived anew. */
  setPins(pins: Partial<GatewayPins> | undefined): void;
  /** Closes every profile connection. */
  close(): Promise<void>;
}

/**
 * The profile connections of a pool. Without an `authProvider` nothing signs in, so no
 * server is per profile and every view is the shared one.
 *
 * @param parent - the shared pool's state
 * @param config - the shared pool's config (limits and review for the profile connections)
 * @param spawn - makes a pool of one server
 * @throws nothing
 */
export function createProfileConnections(
  parent: PoolState,
  config: UpstreamPoolConfig,
  spawn: ChildPoolFactory,
): ProfileConnections {
  const max = Math.max(1, parent.options.maxProfileConnections ?? DEFAULT_MAX_PROFILE_CONNECTIONS);
  const connections = new Map<string, ProfileConnection>();
  const views = new Map<string, ExposedTools>();
  let pins = config.pins;
  const authProvider = parent.options.authProvider;
  const perProfile = (upstream: Upstream) =>
    authProvider !== undefined && signsInPerProfile(upstream.config);

  const notify = () => {
    if (parent.closed) return;
    const tools = parent.exposed.list();
    for (const listener of parent.toolsListeners) {
      try {
        listener(tools.slice());
      } catch {
        // A listener must not take the pool down.
      }
    }
  };

  // Failed for want of a sign-in, idle, and long enough ago: worth opening anew.
  const waitsForSignIn = (connection: ProfileConnection) => {
    const own = connection.state.byName.get(connection.server);
    return (
      own?.state === 'failed' &&
      own.signInRequired !== undefined &&
      connection.inFlight === 0 &&
      Date.now() - connection.openedAt >= SIGN_IN_RETRY_MS
    );
  };

  const closeOne = async (key: string, connection: ProfileConnection) => {
    if (connections.get(key) === connection) connections.delete(key);
    connection.stopListening();
    await connection.pool.close().catch(() => {});
  };

  // Past the bound, the idle connection used least recently is closed.
  const makeRoom = (): boolean => {
    if (connections.size < max) return true;
    let oldest: [string, ProfileConnection] | undefined;
    for (const entry of connections) {
      if (entry[1].inFlight > 0) continue;
      if (oldest === undefined || entry[1].lastUse < oldest[1].lastUse) oldest = entry;
    }
    if (oldest === undefined) return false;
    void closeOne(oldest[0], oldest[1]);
    return true;
  };

  const open = (upstream: Upstream, profile: string): ProfileConnection | undefined => {
    const key = `${upstream.name}\u0000${profile}`;
    const known = connections.get(key);
    if (known !== undefined && !waitsForSignIn(known)) {
      known.lastUse = Date.now();
      return known;
    }
    if (known !== undefined) void closeOne(key, known);
    if (parent.closed || authProvider === undefined || !makeRoom()) return undefined;
    const { onProgress: _display, ...options } = parent.options;
    const child = spawn(
      {
        mcpServers: { [upstream.name]: upstream.config },
        ...(config.limits === undefined ? {} : { limits: config.limits }),
        ...(config.review === undefined ? {} : { review: config.review }),
      },
      {
        ...options,
        // This profile's sign-in only: never the operator's.
        authProvider: (server, entry) => authProvider(server, entry, { profile }),
      },
      { eras: parent.eras },
    );
    const connection: ProfileConnection = {
      server: upstream.name,
      profile,
      pool: child.pool,
      state: child.state,
      started: child.pool.start(),
      openedAt: Date.now(),
      lastUse: Date.now(),
      inFlight: 0,
      stopListening: child.pool.onToolsChanged(notify),
    };
    connections.set(key, connection);
    return connection;
  };

  // The tools of a per-profile server in a profile's view: its own list once it has one;
  // until then (connecting, or no sign-in of its own) the shared list when the server said
  // it is the same for everyone (never a `private` one), so that a call can say what to do.
  const toolsOf = (upstream: Upstream, profile: string): ToolDefinition[] => {
    // Reading a view opens nothing (a warm-up, a console page): `settle` and calls do.
    const own = connections
      .get(`${upstream.name}\u0000${profile}`)
      ?.state.byName.get(upstream.name);
    if (own !== undefined && (own.state === 'ready' || own.tools.length > 0)) {
      return LISTED_STATES.has(own.state) ? own.tools : [];
    }
    const shared = LISTED_STATES.has(upstream.state) && upstream.listScope !== 'private';
    return shared ? upstream.tools : [];
  };

  const settle = async (profile: string): Promise<void> => {
    const opened = parent.upstreams
      .filter((upstream) => perProfile(upstream) && upstream.state !== 'disabled')
      .map((upstream) => open(upstream, profile)?.started);
    await Promise.allSettled(opened);
  };

  const view = (profile: string): ExposedTools => {
    let exposed = views.get(profile);
    if (exposed === undefined) {
      // Profiles come from the config; the bound only guards a caller that invents them.
      if (views.size >= max * 4) views.clear();
      exposed = createExposedTools(pins);
      views.set(profile, exposed);
    }
    exposed.update(
      parent.upstreams.flatMap((upstream) => {
        if (perProfile(upstream)) {
          if (upstream.state === 'disabled' || upstream.state === 'closed') return [];
          return toolsOf(upstream, profile).map((tool) => ({ server: upstream.name, tool }));
        }
        if (!LISTED_STATES.has(upstream.state)) return [];
        return upstream.tools.map((tool) => ({ server: upstream.name, tool }));
      }),
    );
    return exposed;
  };

  return {
    view,
    review() {
      const seen = new Set(liveFingerprints(parent.upstreams).map(keyOf));
      const fingerprints: ToolFingerprint[] = [];
      const held = new Map<string, HeldTool[]>();
      for (const connection of connections.values()) {
        for (const item of liveFingerprints(connection.state.upstreams)) {
          if (seen.has(keyOf(item))) continue;
          seen.add(keyOf(item));
          fingerprints.push(item);
        }
        for (const upstream of connection.state.upstreams) {
          const list = held.get(upstream.name) ?? [];
          for (const tool of upstream.held) {
            if (!list.some((known) => known.name === tool.name)) list.push(tool);
          }
          held.set(upstream.name, list);
        }
      }
      return { fingerprints, held };
    },
    async call(profile, name, args, options) {
      let entry = view(profile).get(name)?.entry;
      if (entry === undefined) {
        // The profile's connection may be opening (first use, or reopened after the bound
        // closed it): its list is waited for once.
        await settle(profile);
        entry = view(profile).get(name)?.entry;
      }
      if (entry === undefined) {
        return errorResult(
          'unknown_tool',
          `Tool '${echoName(name)}' is not served by any connected upstream server. Check the name against tools/list.`,
        );
      }
      const upstream = parent.byName.get(entry.server)!;
      const call = { name, args, callOptions: options };
      if (!perProfile(upstream)) return callOnUpstream(parent, upstream, entry.tool, call);
      const connection = open(upstream, profile);
      if (connection === undefined) {
        return errorResult(
          'upstream_unavailable',
          `Server '${upstream.name}' has as many connections for profiles open as the gateway allows, all busy; '${name}' was not called. Try again shortly.`,
        );
      }
      connection.inFlight += 1;
      try {
        await connection.started;
        const own = connection.state.byName.get(upstream.name)!;
        if (own.state !== 'ready' && own.signInRequired !== undefined) {
          // After a `login`, the next call connects again (the retry's own pace).
          connection.pool.retry(upstream.name);
          return errorResult(
            'upstream_sign_in_required',
            `Server '${upstream.name}' needs sign-in for profile '${profile}'; '${name}' was not called. ${own.signInRequired}`,
          );
        }
        return await callOnUpstream(connection.state, own, entry.tool, call);
      } finally {
        connection.inFlight -= 1;
        connection.lastUse = Date.now();
      }
    },
    settle,
    async closeServer(server) {
      await Promise.all(
        [...connections]
          .filter(([, connection]) => connection.server === server)
          .map(([key, connection]) => closeOne(key, connection)),
      );
    },
    setPins(next) {
      pins = next;
      views.clear();
    },
    async close() {
      views.clear();
      await Promise.all([...connections].map(([key, connection]) => closeOne(key, connection)));
    },
  };
}
