/** A console page: draws itself into `main`; the function it returns stops its timers and streams. */
export type Page = (main: HTMLElement, say: (text: string) => void) => () => void;

/** Calls `load` now and every `everyMs`, until stopped. */
export function every(everyMs: number, load: () => Promise<void>): () => void {
  let stopped = false;
  let timer: number | undefined;
  const run = async () => {
    await load().catch(() => {});
    if (!stopped) timer = window.setTimeout(run, everyMs);
  };
  void run();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
