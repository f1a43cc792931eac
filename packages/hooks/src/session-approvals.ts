import { ToolSearchError } from '@tool-search/core';

/**
 * Where the dispatcher remembers 'allow-session' answers: per session id and tool
 * identity key, never across sessions. The key is the tool's `server/name` when it has
 * an `origin`, else its name, so that an approval follows
 * the tool through a rename and never passes to another tool that takes its name. Pass your own to {@link createDispatcher} to forget a
 * session when it ends, or to share approvals between dispatchers of one session.
 */
export interface SessionApprovalStore {
  /** Whether the tool of key `toolName` was allowed for the rest of `sessionId`. */
  has(sessionId: string, toolName: string): boolean;
  /** Remembers that the tool of key `toolName` is allowed for the rest of `sessionId`. */
  remember(sessionId: string, toolName: string): void;
  /** Forgets every approval of `sessionId`, e.g. when the session ends. */
  forget(sessionId: string): void;
  /** Forgets everything. */
  clear(): void;
}

/** Options of {@link createSessionApprovalStore}. */
export interface SessionApprovalStoreOptions {
  /**
   * How many sessions to remember. Beyond it the least recently approved session is
   * forgotten, which only means its tools are asked about again.
   * @defaultValue 1000
   */
  maxSessions?: number;
}

/**
 * Creates an in-memory {@link SessionApprovalStore}.
 *
 * @param options.maxSessions - how many sessions to remember
 * @returns a plain object; the dispatcher creates one of its own when you pass none
 * @throws `ToolSearchError` `invalid_argument` when `maxSessions` is not a positive integer
 *
 * @example
 * ```ts
 * const sessionApprovals = createSessionApprovalStore();
 * const dispatch = createDispatcher({ execute, approval, sessionApprovals });
 * // when a session ends:
 * sessionApprovals.forget(sessionId);
 * ```
 */
export function createSessionApprovalStore(
  options: SessionApprovalStoreOptions = {},
): SessionApprovalStore {
  const maxSessions = options.maxSessions ?? 1000;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new ToolSearchError(
      'invalid_argument',
      `createSessionApprovalStore: maxSessions must be a positive integer, got ${String(maxSessions)}.`,
    );
  }
  // Map keeps insertion order: re-inserting on every approval makes the first key the
  // least recently approved session.
  const sessions = new Map<string, Set<string>>();
  return {
    has: (sessionId, toolName) => sessions.get(sessionId)?.has(toolName) === true,
    remember(sessionId, toolName) {
      const tools = sessions.get(sessionId) ?? new Set<string>();
      sessions.delete(sessionId);
      tools.add(toolName);
      sessions.set(sessionId, tools);
      if (sessions.size > maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest !== undefined) sessions.delete(oldest);
      }
    },
    forget: (sessionId) => {
      sessions.delete(sessionId);
    },
    clear: () => sessions.clear(),
  };
}
