import { hostname } from 'node:os';
import { type AuditHook, type AuditRecord, createAuditHook } from '@tool-search/hooks';
import { describeCallForAudit } from '../tool-result/call-details.js';
import { toolErrorText } from '../tool-result/call-result.js';
import type { GatewayStore } from './types.js';

/**
 * The gateway's audit hook: one record per dispatched call (ran, failed, denied or
 * cancelled), and one per call refused as outside the session's scope
 * (`recordRefusal`), appended to the store's audit trail (a result the tool answered as an
 * error with its text in `toolError`), with the session's profile and the
 * replica that wrote it. A record that cannot be written (the store is down) is
 * passed to `onLost` (the gateway logs it) and named in the call result's warnings.
 *
 * @param store - the gateway's store
 * @param profileOf - the profile of a session id, when it has one
 * @param onLost - told of a record that could not be written, with the error
 * @param options.callDetails - keep each call's arguments and the start of its result
 * (`shownArguments`, `resultExcerpt`, bounded and escaped)
 * @returns the hook
 * @throws nothing
 */
export function createStoreAuditHook(
  store: GatewayStore,
  profileOf: (sessionId: string | undefined) => string | undefined,
  onLost: (record: AuditRecord, error: unknown) => void = () => {},
  options: { callDetails?: boolean } = {},
): AuditHook {
  const replica = `${hostname()}:${process.pid}`;
  const write = async (record: AuditRecord) => {
    const profile = profileOf(record.sessionId);
    try {
      await store.appendAudit({
        ...record,
        ...(profile === undefined ? {} : { profile }),
        replica,
      });
    } catch (error) {
      onLost(record, error);
      throw error;
    }
  };
  // A tool that answered an error (`isError`) is recorded with its text, so that a reader
  // of the trail shows the call as failed, never as ok.
  return createAuditHook(write, {
    toolErrorOf: toolErrorText,
    ...(options.callDetails === true ? { describeCall: describeCallForAudit } : {}),
  });
}
