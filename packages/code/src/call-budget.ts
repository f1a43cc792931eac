// What one program may still spend: calls, writes, bytes out and in, and the slots for
// calls in flight. Owned by one run.
import type { ProgramLimits } from './limits.js';

/** A refusal for a spent budget, as the program's caught error reads it. */
export interface BudgetRefusal {
  code: 'program_budget_spent';
  message: string;
}

/** The budgets of one run. */
export interface CallBudget {
  /** Counts one call; a refusal when the program made `maxCalls` already. */
  spendCall(): BudgetRefusal | undefined;
  /** Counts one write (a tool not marked read-only). */
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
  const spent = { calls: 0, writes: 0, out: 0, in: 0, inFlight: 0 };
  const waiting: (() => void)[] = [];
  // A freed slot passes straight to the longest waiter, so none can be taken twice.
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) spent.inFlight -= 1;
    else next();
  };
  return {
    spendCall() {
      spent.calls += 1;
      return spent.calls > limits.maxCalls
        ? {
            code: 'program_budget_spent',
            message: `the program made more than ${limits.maxCalls} tool calls (limits.maxCalls)`,
          }
        : undefined;
    },
    spendWrite(name) {
      spent.writes += 1;
      return spent.writes > limits.maxWrites
        ? {
            code: 'program_budget_spent',
            message: `'${name}' is a write (not marked read-only) and the program made ${limits.maxWrites} writes already (limits.maxWrites)`,
          }
        : undefined;
    },
    spendOut(bytes) {
      spent.out += bytes;
      return spent.out > limits.maxBytesOut
        ? {
            code: 'program_budget_spent',
            message: `the program sent more than ${limits.maxBytesOut} bytes to tools (limits.maxBytesOut)`,
          }
        : undefined;
    },
    spendIn(bytes) {
      spent.in += bytes;
      return spent.in > limits.maxBytesIn
        ? {
            code: 'program_budget_spent',
            message: `tools answered more than ${limits.maxBytesIn} bytes to the program (limits.maxBytesIn)`,
          }
        : undefined;
    },
    async slot() {
      if (spent.inFlight >= limits.maxCallsInFlight) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        spent.inFlight += 1;
      }
      return release;
    },
  };
}
