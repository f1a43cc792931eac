import type { JsonObject } from './feature-client.js';

/** The most log notifications one server gets through per window; the rest are counted. */
export const MAX_LOGS_PER_WINDOW = 100;
const WINDOW_MS = 1_000;

/**
 * Names each upstream log notification after its server (`logger`: the server's name,
 * or `server/logger` when the server named one) and drops a flood: at most
 * {@link MAX_LOGS_PER_WINDOW} a second per server, the first message after a flood
 * saying how many were dropped.
 *
 * @throws nothing
 */
export function createLogLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number; dropped: number }>();
  return {
    admit(server: string, params: JsonObject): JsonObject | undefined {
      const time = now();
      let window = windows.get(server);
      if (window === undefined || time - window.start >= WINDOW_MS) {
        window = { start: time, count: 0, dropped: window?.dropped ?? 0 };
        windows.set(server, window);
      }
      window.count += 1;
      if (window.count > MAX_LOGS_PER_WINDOW) {
        window.dropped += 1;
        return undefined;
      }
      const logger =
        typeof params['logger'] === 'string' ? `${server}/${params['logger']}` : server;
      const named: JsonObject = { ...params, logger };
      if (window.dropped > 0) {
        named['_meta'] = {
          ...(named['_meta'] as JsonObject | undefined),
          'tool-search/droppedLogs': window.dropped,
        };
        window.dropped = 0;
      }
      return named;
    },
  };
}
