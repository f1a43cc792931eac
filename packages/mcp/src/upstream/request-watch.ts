import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/client';

/** How a watched request ended on the wire. */
export type WatchedEnd = 'answered' | 'closed';

/**
 * Sees the JSON-RPC requests a client sends on one connection and the answers that come
 * back, below the SDK: the SDK forgets a request the moment it is cancelled, so only
 * here can the pool learn that the upstream answered a call it was told to cancel, i.e.
 * that it really stopped running it.
 *
 * @internal
 */
export interface RequestWatch {
  /**
   * Runs `send` and learns the id of the request it sends: the first request, sent now or
   * later (the SDK's `callTool` sends after a tick), that `match` accepts, else (no
   * `match`) the first one sent synchronously. `id` is `undefined` until it is sent.
   */
  capture<T>(
    send: () => T,
    match?: (message: JSONRPCMessage) => boolean,
  ): { value: T; readonly id: RequestId | undefined };
  /**
   * Settles when request `id` has been answered (a result or an error, however late) or
   * the connection has closed, then forgets the request. Never rejects.
   */
  settled(id: RequestId): Promise<WatchedEnd>;
  /** Forgets a request whose answer the SDK delivered. */
  forget(id: RequestId): void;
}

interface Entry {
  answered: boolean;
  waiters: ((end: WatchedEnd) => void)[];
}

const isAnswer = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } =>
  'id' in message && ('result' in message || 'error' in message);

/**
 * Watches a connected transport (after `client.connect`, which installs its handlers):
 * wraps its `send`, `onmessage` and `onclose` and passes everything on unchanged.
 *
 * @param transport - the client's transport, connected
 * @returns the watch
 * @throws nothing
 * @internal
 */
export function watchRequests(transport: Transport): RequestWatch {
  const entries = new Map<RequestId, Entry>();
  let capturing: ((id: RequestId) => void) | undefined;
  // Captures waiting for a later send, each with what it is waiting for.
  const pending = new Set<{
    match: (message: JSONRPCMessage) => boolean;
    found: (id: RequestId) => void;
  }>();
  let closed = false;

  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message) {
      if (capturing !== undefined) capturing(message.id);
      for (const waiter of pending) {
        if (waiter.match(message)) {
          pending.delete(waiter);
          waiter.found(message.id);
          break;
        }
      }
    }
    return send(message, options);
  };
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isAnswer(message)) {
      const entry = entries.get(message.id);
      if (entry !== undefined) {
        entry.answered = true;
        for (const waiter of entry.waiters.splice(0)) waiter('answered');
      }
    }
    onmessage?.call(transport, message, extra);
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    closed = true;
    for (const entry of entries.values()) {
      for (const waiter of entry.waiters.splice(0)) waiter('closed');
    }
    entries.clear();
    onclose?.call(transport);
  };

  return {
    capture(run, match) {
      let id: RequestId | undefined;
      const found = (sent: RequestId) => {
        if (id !== undefined) return;
        id = sent;
        if (!closed) entries.set(sent, { answered: false, waiters: [] });
      };
      if (match !== undefined) {
        const waiter = { match, found };
        pending.add(waiter);
        const value = run();
        // A call that ends before it sends anything leaves no waiter behind.
        const done = () => {
          pending.delete(waiter);
        };
        Promise.resolve(value).then(done, done);
        return {
          value,
          get id() {
            return id;
          },
        };
      }
      capturing = found;
      try {
        return { value: run(), id };
      } finally {
        capturing = undefined;
      }
    },
    settled(id) {
      const entry = entries.get(id);
      if (entry === undefined) return Promise.resolve(closed ? 'closed' : 'answered');
      if (entry.answered) {
        entries.delete(id);
        return Promise.resolve('answered');
      }
      return new Promise<WatchedEnd>((resolve) => {
        entry.waiters.push((end) => {
          entries.delete(id);
          resolve(end);
        });
      });
    },
    forget(id) {
      entries.delete(id);
    },
  };
}
