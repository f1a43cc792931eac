// What one program may still spend: calls, writes, bytes out and in, and the slots for
// calls in flight. Owned by one run.
import type { ProgramLimits } from './limits.js';
import { createSlots } from './slots.js';

/** A refusal for a spent budget, as the program's caught error reads it. */
export interface BudgetRefusal {
  code: 'program_budget_spent';
  message: string;
}

/** The budgets of one run. */
export interface CallBudget {
  /** Counts one call; a refusal when the program made `maxCalls` already. */
  spendCall(): BudgetRefusal | undefined;
  /** Counts one `search` or `describe`. */
  spendLookup(): BudgetRefusal | undefined;
  /** Counts one write (a tool the program policy does not hold read-only). */
  spendWrite(name: string): BudgetRefusal | undefined;
  /** Counts bytes the program sends out (arguments, queries). */
  spendOut(bytes: number): BudgetRefusal | undefined;
  /** Counts bytes handed into the program (results). */
  spendIn(bytes: number): BudgetRefusal | undefined;
  /** Waits for a free slot among `maxCallsInFlight`; call the answer to free it. */
  slot(): Promise<() => void>;
}

/**
 * Creates the budgets of one run.
 *
 * @param limits - the run's limits
 * @returns the budgets
 * @throws nothing
 */
export function createCallBudget(limits: ProgramLimits): CallBudget {
  const spent = { calls: 0, lookups: 0, writes: 0, out: 0, in: 0 };
  const inFlight = createSlots(limits.maxCallsInFlight);
  // Adds to one counter; a refusal once it passes its limit.
  const spend = (
    counter: 'calls' | 'lookups' | 'writes' | 'out' | 'in',
    amount: number,
    limit: number,
    message: string,
  ): BudgetRefusal | undefined => {
    spent[counter] += amount;
    return spent[counter] > limit ? { code: 'program_budget_spent', message } : undefined;
  };
  return {
    spendCall: () =>
      spend(
        'calls',
        1,
        limits.maxCalls,
        `the program made more than ${limits.maxCalls} tool calls (limits.maxCalls)`,
      ),
    spendLookup: () =>
      spend(
        'lookups',
        1,
        limits.maxLookups,
        `the program made more than ${limits.maxLookups} searches and descriptions (limits.maxLookups)`,
      ),
    spendWrite: (name) =>
      spend(
        'writes',
        1,
        limits.maxWrites,
        `'${name}' is a write (not read-only by the program policy) and the program made ${limits.maxWrites} writes already (limits.maxWrites)`,
      ),
    spendOut: (bytes) =>
      spend(
        'out',
        bytes,
        limits.maxBytesOut,
        `the program sent more than ${limits.maxBytesOut} bytes to tools (limits.maxBytesOut)`,
      ),
    spendIn: (bytes) =>
      spend(
        'in',
        bytes,
        limits.maxBytesIn,
        `tools answered more than ${limits.maxBytesIn} bytes to the program (limits.maxBytesIn)`,
      ),
    slot: () => inFlight.take(),
  };
}
