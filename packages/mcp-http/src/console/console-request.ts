import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleState } from './console-state.js';

/** One console API request. */
export interface ConsoleRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: ConsoleState;
  /** The signed-in operator's principal (`default`, `profile:<name>`). */
  operator: string;
}

/** A handler of one console API route. */
export type ConsoleHandler = (request: ConsoleRequest) => Promise<void>;
