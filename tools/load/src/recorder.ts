import { count, type OutcomeCounts, type OutcomeKind } from './outcome.js';

/** The kinds of operation a load session does. */
export type OperationKind =
  | 'tools/list'
  | 'tool_search'
  | 'tool_describe'
  | 'call via tool_call'
  | 'call direct'
  | 'write'
  | 'read-back'
  | 'cross-profile probe';

/** A write and what became of it. */
export interface WriteRecord {
  /** `filesystem` or `memory`. */
  server: 'filesystem' | 'memory';
  /** The file path or the entity name. */
  key: string;
  /** What was written. */
  value: string;
  /** The write answered a result (not an error). */
  acknowledged: boolean;
  /** The read-back right after it saw the value. */
  readBack: boolean;
}

/** Everything the sessions of a run observed. */
export interface Recorder {
  /** Latencies in milliseconds, by operation kind. */
  latencies: Map<OperationKind, number[]>;
  /** Outcome counts, by operation kind. */
  outcomes: Map<OperationKind, OutcomeCounts>;
  /** Names of tools outside a session's profile that it saw or reached. */
  leaks: string[];
  /** Answers that were not what the call asked for (another session's, or wrong). */
  wrongAnswers: string[];
  /** Answers of the right kind but not well formed. */
  malformed: string[];
  /** Every write. */
  writes: WriteRecord[];
  /** Per profile: whether its sessions were shown the bridge tools (tool search active). */
  searchActive: Map<string, boolean>;
}

/**
 * A fresh recorder.
 *
 * @returns an empty recorder
 * @throws nothing
 */
export function createRecorder(): Recorder {
  return {
    latencies: new Map(),
    outcomes: new Map(),
    leaks: [],
    wrongAnswers: [],
    malformed: [],
    writes: [],
    searchActive: new Map(),
  };
}

/**
 * Records one request.
 *
 * @param recorder - changed in place
 * @param kind - the operation kind
 * @param ms - its latency
 * @param outcome - what the client got
 * @returns nothing
 * @throws nothing
 */
export function record(
  recorder: Recorder,
  kind: OperationKind,
  ms: number,
  outcome: OutcomeKind,
): void {
  const latencies = recorder.latencies.get(kind) ?? [];
  latencies.push(ms);
  recorder.latencies.set(kind, latencies);
  const outcomes = recorder.outcomes.get(kind) ?? {};
  count(outcomes, outcome);
  recorder.outcomes.set(kind, outcomes);
}
