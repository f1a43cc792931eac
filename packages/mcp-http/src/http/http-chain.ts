import type { IncomingMessage, ServerResponse } from 'node:http';

/** Who a request authenticated as: the token's principal and the profile it selects. */
export interface HttpPrincipal {
  /** `''` without tokens, `default` for the gateway token, `profile:<name>` for a profile's. */
  principal: string;
  /** The profile (scope) the token selects. */
  profile: string | undefined;
}

/** One request as it goes through the HTTP front's steps. */
export interface HttpRequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request's URL (only its path and query matter). */
  url: URL;
  /** Set by the authentication step. */
  auth?: HttpPrincipal;
  /** The parsed body, when a step before the last read it (the era step). */
  body?: { value: unknown };
}

/**
 * One step of the HTTP front (origin, health, path, host, preflight, auth, routing):
 * `true` when it answered the request, so that the steps after it do not run.
 */
export type HttpStep = (context: HttpRequestContext) => boolean | Promise<boolean>;

/**
 * Runs the steps in order until one answers.
 *
 * @param steps - the steps, in order
 * @param context - the request
 * @returns once a step answered (or none did)
 * @throws what a step throws
 */
export async function runHttpSteps(
  steps: readonly HttpStep[],
  context: HttpRequestContext,
): Promise<void> {
  for (const step of steps) {
    // Most steps answer at once: only a promise is waited for (a turn of the event
    // loop's microtasks per step and request otherwise).
    const answered = step(context);
    if (answered === true || (answered !== false && (await answered))) return;
  }
}
