/** Where a {@link CheckReporter} writes: `console` by default. */
export interface ReporterOutput {
  log(text: string): void;
  error(text: string): void;
}

/** The pass/fail lines and the summary of one of the repository's checks. */
export interface CheckReporter {
  /** The failures so far, in order. */
  readonly failures: readonly string[];
  /** Prints `  ok   <message>`. */
  pass(message: string): void;
  /** Records a failure and prints `  FAIL <message>` to stderr. */
  fail(message: string): void;
  /** Prints `  note <message>`: worth reading, not a failure. */
  note(message: string): void;
  /** Prints a section title, `--- <title>`, after a blank line. */
  step(title: string): void;
  /**
   * Prints the summary: `<name> check: all passed`, or the number of failures (and,
   * with `listFailures`, the first line of each) on stderr.
   *
   * @returns the exit code: 0 when nothing failed, else 1
   */
  summarize(): number;
}

/**
 * Creates the reporter of one check script (site, packages, changesets), so that every
 * check prints its lines and its summary the same way.
 *
 * @param name - the check's name in the summary, e.g. `site`
 * @param options.listFailures - list the first line of every failure in the summary
 *   @defaultValue false
 * @param options.output - where to write @defaultValue console
 * @returns the reporter
 * @throws nothing
 */
export function createCheckReporter(
  name: string,
  options: { listFailures?: boolean; output?: ReporterOutput } = {},
): CheckReporter {
  const output = options.output ?? console;
  const failures: string[] = [];
  return {
    failures,
    pass: (message) => output.log(`  ok   ${message}`),
    fail: (message) => {
      failures.push(message);
      output.error(`  FAIL ${message}`);
    },
    note: (message) => output.log(`  note ${message}`),
    step: (title) => output.log(`\n--- ${title}`),
    summarize: () => {
      if (failures.length === 0) {
        output.log(`\n${name} check: all passed`);
        return 0;
      }
      output.error(`\n${name} check: ${failures.length} failure(s)`);
      if (options.listFailures) {
        for (const failure of failures) output.error(`- ${failure.split('\n')[0]}`);
      }
      return 1;
    },
  };
}

/**
 * Runs a check's `main`, then exits 1 when it recorded failures or threw (printing the
 * stack), as every check script does.
 *
 * @param reporter - the check's reporter
 * @param main - the check
 * @returns a promise that settles when the check is done and passed
 * @throws nothing: a failure ends the process
 */
export async function runCheck(reporter: CheckReporter, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  }
  if (reporter.summarize() !== 0) process.exit(1);
}

/** The lines a {@link createDeferredReporter} holds until {@link DeferredReporter.replay}. */
export interface DeferredReporter {
  readonly reporter: Pick<CheckReporter, 'pass' | 'fail' | 'note' | 'step'>;
  /** Hands every line, in order, to `target` (a failure is recorded there), then forgets them. */
  replay(target: Pick<CheckReporter, 'pass' | 'fail' | 'note' | 'step'>): void;
}

/**
 * A reporter that holds its lines, for work that runs beside other work (the new-user
 * scenarios on another Node): its lines are replayed into the check's reporter when it is
 * done, so that the output reads as if it had run alone.
 *
 * @returns the reporter and its replay
 * @throws nothing
 */
export function createDeferredReporter(): DeferredReporter {
  const held: [kind: 'pass' | 'fail' | 'note' | 'step', text: string][] = [];
  return {
    reporter: {
      pass: (message) => held.push(['pass', message]),
      fail: (message) => held.push(['fail', message]),
      note: (message) => held.push(['note', message]),
      step: (title) => held.push(['step', title]),
    },
    replay(target) {
      for (const [kind, text] of held.splice(0)) target[kind](text);
    },
  };
}
