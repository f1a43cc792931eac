import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../upstream/features/feature-client.js';
import type { FeatureSession } from './feature-session.js';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A session's log level: absent until its client sets one. */
export interface SessionLogLevel {
  level: string | undefined;
}

/**
 * Whether a log notification reaches a session at its level. In a call, a client that set
 * no level hears every message of the call; outside any call, only a client that set a
 * level hears the servers of its scope (so that no client is sent logs it never asked for).
 *
 * @throws nothing
 */
export function admitsLog(level: SessionLogLevel, params: JsonObject, inCall: boolean): boolean {
  if (level.level === undefined) return inCall;
  const rank = LEVELS.indexOf(String(params['level']));
  return rank === -1 || rank >= LEVELS.indexOf(level.level);
}

/**
 * Serves `logging/setLevel` of one session: the level is the session's own (upstream
 * connections are shared, so it is applied by the gateway, never sent upstream).
 *
 * @throws nothing
 */
export function handleLogging(session: FeatureSession, level: SessionLogLevel): void {
  session.state.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    level.level = request.params.level;
    return {};
  });
}
