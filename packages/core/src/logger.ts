/**
 * Where the packages report what they fell back on: a config key they ignored, a value
 * they replaced with its default. `console` is one; so is any logger with a `warn`
 * method (pino, winston, a test's recorder). Pass `{ warn() {} }` to silence them.
 */
export interface ToolSearchLogger {
  /** Receives one warning, a full sentence naming what was ignored and what was used. */
  warn(message: string): void;
}

/**
 * Calls `logger.warn` with each message, turning a logger that throws into silence: a
 * warning never breaks the call that reports it.
 *
 * @param logger - the caller's logger
 * @param messages - the warnings
 * @returns nothing
 * @throws nothing
 */
export function warnEach(logger: ToolSearchLogger, messages: readonly string[]): void {
  for (const message of messages) {
    try {
      logger.warn(message);
    } catch {
      // A logger's own failure is not the caller's.
    }
  }
}
