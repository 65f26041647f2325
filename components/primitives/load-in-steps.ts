/**
 * A module loaded in steps. A dynamic import evaluates every module it brings in one task, and a large library (ECharts,
 * antd's Table) takes longer than a task may block input for (issue 21: 50 ms after hydration); each step is a dynamic
 * import of a part of it, with a yield to the browser between them, so the parts are evaluated in tasks of their own.
 * Modules that an earlier step evaluated are not evaluated again. Loaded once; a failed download is tried again on
 * the next call.
 */
export function loadInSteps<T>(steps: readonly (() => Promise<unknown>)[], last: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= (async () => {
      for (const step of steps) {
        await step();
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
      }
      return last();
    })();
    loading.catch(() => (loading = null));
    return loading;
  };
}
