// The messages between the host and a sandbox worker. Plain data over postMessage: the
// worker never sees a host object, only strings and numbers.

/** What the worker needs of the limits: the ones enforced inside the interpreter. */
export interface GuestLimits {
  cpuTimeMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxResultChars: number;
  maxLogChars: number;
  /** The largest payload the guest may hand the host in one request (characters). */
  maxRequestChars: number;
  /** Requests the worker forwards to the host; past them it refuses on its own. */
  maxRequests: number;
}

/** The operations a program may ask of the host. */
export const HOST_OPERATIONS = ['search', 'describe', 'call'] as const;

/** One of {@link HOST_OPERATIONS}. */
export type HostOperation = (typeof HOST_OPERATIONS)[number];

/** Why a host request failed, as the program's caught error carries it. */
export interface GuestFailure {
  status: 'denied' | 'error' | 'cancelled';
  message: string;
  code?: string;
  /** With `denied`: who decided, `<kind>:<name>` (e.g. `guardrail:program-policy`). */
  by?: string;
}

/** Host to worker. */
export type HostMessage =
  | { type: 'run'; source: string; limits: GuestLimits }
  | { type: 'reply'; id: number; ok: true; json: string }
  | { type: 'reply'; id: number; ok: false; failure: GuestFailure };

/** How a program ended, as the worker saw it. */
export type GuestOutcome =
  | { ok: true; json?: string; resultChars: number; cpuMs: number }
  | { ok: false; code: GuestErrorCode; message: string; cpuMs: number };

/** The error codes the worker itself decides (the host adds the wall limit and more). */
export type GuestErrorCode =
  | 'program_syntax_error'
  | 'program_threw'
  | 'program_cpu_limit'
  | 'program_memory_limit'
  | 'program_stack_overflow'
  | 'program_stalled'
  | 'program_output_invalid'
  | 'program_sandbox_failed';

/** Worker to host. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'request'; id: number; op: HostOperation; payload: string }
  | { type: 'log'; line: string }
  | { type: 'done'; outcome: GuestOutcome };
