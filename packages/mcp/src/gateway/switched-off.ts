import type { Guardrail } from '@tool-search/hooks';
import type { GatewayStore } from '../store/types.js';
import { reviewKey } from '../upstream/review.js';

/** How long a replica trusts its last read of the switched-off tools. */
const REREAD_MS = 1000;

/**
 * The guardrail of the operator's per-tool off switch: a call of a tool whose review key
 * (`server/name`, or the bare name of a tool without an origin) the store lists as
 * switched off is refused, whatever the route. The list is read from the store at most
 * once a second per replica; a store that cannot be read denies (the gateway fails
 * closed on its store).
 *
 * @param store - the gateway's store
 * @returns the guardrail
 * @throws nothing
 */
export function createSwitchedOffGuardrail(store: GatewayStore): Guardrail {
  let last: { at: number; keys: Promise<Set<string>> } | undefined;
  const switchedOff = (): Promise<Set<string>> => {
    const now = Date.now();
    if (last === undefined || now - last.at >= REREAD_MS) {
      const keys = store.switchedOffTools();
      last = { at: now, keys };
      // A failed read is not kept: the next call reads again.
      keys.catch(() => {
        if (last?.keys === keys) last = undefined;
      });
    }
    return last.keys;
  };
  return {
    name: 'switched-off',
    async check(call, ctx) {
      const off = await switchedOff();
      if (off.size === 0) return { allow: true };
      const origin = ctx.tool?.name === call.name ? ctx.tool.origin : undefined;
      const key = origin === undefined ? call.name : reviewKey(origin.server, origin.name);
      return off.has(key)
        ? { allow: false, reason: `An operator switched '${call.name}' off in the console.` }
        : { allow: true };
    },
  };
}
