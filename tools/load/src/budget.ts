/**
 * Runs `work` within a run's time budget: the run fails rather than hang when the
 * gateway stops answering.
 *
 * @param work - the run's sessions
 * @param budgetMs - the budget in milliseconds
 * @returns what `work` resolved to
 * @throws `Error` when the budget passes first, or what `work` rejected with
 */
export async function withinBudget<T>(work: Promise<T>, budgetMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the run passed its budget of ${budgetMs / 1000} s`)),
      budgetMs,
    );
  });
  try {
    return await Promise.race([work, budget]);
  } finally {
    clearTimeout(timer);
  }
}
