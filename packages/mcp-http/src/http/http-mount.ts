import type { HttpTokens } from './http-auth.js';
import type { HttpStep } from './http-chain.js';

/** What a listener tells a mount when it starts. */
export interface HttpMountContext {
  /** The listener's tokens: who a bearer token is. */
  readonly tokens: HttpTokens;
  /** The listening port (known once it listens). */
  readonly port: () => number;
}

/**
 * A part of the site served beside the MCP endpoint under its own path prefix (the
 * operator console under `/console`). The listener checks the `Host` of its requests as
 * it does the endpoint's, and hands it every request under `prefix`.
 */
export interface HttpMount {
  /** The path it answers under, e.g. `/console` (that path and everything below it). */
  readonly prefix: string;
  /**
   * Its step, made once per listener.
   *
   * @param context - the listener's tokens and port
   * @returns the step (it answers every request it is handed)
   */
  step(context: HttpMountContext): HttpStep;
}
