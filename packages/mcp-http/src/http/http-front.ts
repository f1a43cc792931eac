import type { GatewayStore } from '@tool-search/mcp';
import type { HttpLimits } from './http-limits.js';
import type { createSessionFactory, HttpSession } from './http-session-factory.js';
import type { SessionTable } from './http-session-table.js';

/** What the session routes of a listener share: its sessions, store and limits. */
export interface HttpFront {
  /** This replica's sessions. */
  sessions: SessionTable<HttpSession>;
  /** The shared store, when there is one (a store in memory is this process). */
  store: GatewayStore | undefined;
  /** Opens and restores sessions. */
  factory: ReturnType<typeof createSessionFactory>;
  limits: HttpLimits;
  maxBodyBytes: number;
  idleTimeoutMs: number;
  /** Whether new sessions are still accepted (false once the listener stops accepting). */
  accepting(): boolean;
  /** A principal in words, for messages. */
  describePrincipal(principal: string): string;
  /** When the first idle session closes, in ms from now (undefined: none is idle). */
  idleExpiry(): number | undefined;
  /** The idle rule and the soonest expiry, in words, for a refusal. */
  describeIdleExpiry(soonest: number | undefined): string;
}
