import type { GatewayStore } from '../store/types.js';

/** Resolves with the store once it answers a ping (a Redis store connects in the background). */
export async function untilReady(store: GatewayStore, timeoutMs = 10_000): Promise<GatewayStore> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await store.ping();
      return store;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
