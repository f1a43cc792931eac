import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolSearchError } from '@tool-search/core';
import type { GatewayStore } from '@tool-search/mcp';

/**
 * The MCP SDK's `EventStore` of one session over a {@link GatewayStore}: every message
 * of the session's SSE streams is kept, so that a client that reconnects with
 * `Last-Event-ID`, to this replica or any other, gets what it missed. When the store
 * is down a message still goes out, under an id that cannot be resumed, and
 * `onUnstored` is told (the gateway logs it): it is never kept in memory only.
 *
 * @param store - the gateway's store
 * @param sessionId - the session
 * @param onUnstored - told when a message could not be stored
 * @returns the event store for the session's transport
 * @throws nothing; `replayEventsAfter` rejects for an unknown event id
 */
export function createSessionEventStore(
  store: GatewayStore,
  sessionId: string,
  onUnstored: (error: unknown) => void = () => {},
): EventStore {
  let unstored = 0;
  return {
    async storeEvent(streamId, message) {
      try {
        return await store.appendEvent(sessionId, streamId, message);
      } catch (error) {
        onUnstored(error);
        unstored += 1;
        return `unstored-${unstored}`;
      }
    },
    async getStreamIdForEventId(eventId) {
      return (await store.eventsAfter(sessionId, eventId))?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const found = await store.eventsAfter(sessionId, lastEventId);
      if (found === undefined) {
        throw new ToolSearchError(
          'invalid_argument',
          `Unknown event id '${lastEventId}': it is too old or of another session.`,
          { data: { field: 'Last-Event-ID' } },
        );
      }
      for (const event of found.events) await send(event.id, event.message);
      return found.streamId;
    },
  };
}
