import type { HttpStep } from './http-chain.js';
import type { HttpMount, HttpMountContext } from './http-mount.js';

/**
 * The steps of a listener's mounts: a request under a mount's prefix passes the host
 * check (against DNS rebinding), then goes to the mount, which answers it.
 *
 * @param mounts - the listener's mounts
 * @param hostCheck - the listener's host step
 * @param context - what the mounts are told of the listener
 * @returns one step per mount
 * @throws nothing
 */
export function mountSteps(
  mounts: readonly HttpMount[],
  hostCheck: HttpStep,
  context: HttpMountContext,
): HttpStep[] {
  return mounts.map((mount) => {
    const step = mount.step(context);
    return async (request) => {
      const path = request.url.pathname;
      if (path !== mount.prefix && !path.startsWith(`${mount.prefix}/`)) return false;
      if (await hostCheck(request)) return true;
      await step(request);
      return true;
    };
  });
}
