import type { Writable } from 'node:stream';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The child process the SDK's stdio transport keeps (not part of its typed surface). */
interface WithProcess {
  _process?: { stdin?: Writable | null };
}

/**
 * Sends the messages a stdio upstream is given in one turn of the event loop as one
 * write: the first message of a turn corks the child's stdin and the turn's
 * `setImmediate` uncorks it. Under concurrency the gateway hands an upstream many calls
 * per turn, and each write of its own wakes the upstream once; in order, unchanged.
 * A transport whose child cannot be reached (another SDK's layout) is left as it is.
 *
 * @param transport - a connected stdio transport
 * @returns nothing; its `send` now batches
 * @throws nothing
 * @internal
 */
export function batchStdioWrites(transport: StdioClientTransport): void {
  const stdin = (transport as unknown as WithProcess)._process?.stdin;
  if (stdin === undefined || stdin === null || typeof stdin.cork !== 'function') return;
  const send = transport.send.bind(transport);
  let corked = false;
  const uncork = () => {
    corked = false;
    stdin.uncork();
  };
  transport.send = (message) => {
    if (!corked && stdin.writable) {
      corked = true;
      stdin.cork();
      setImmediate(uncork);
    }
    return send(message);
  };
}
