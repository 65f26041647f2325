/**
 * The topology graph's code, loaded in steps. A dynamic import evaluates the modules it brings in one task, and
 * ECharts as a whole takes longer than a task may block input for (issue 6: 50 ms); so zrender, ECharts' core, the
 * canvas renderer, then the graph with its series and components each come in a dynamic import of their own, with
 * a yield to the browser between them. Modules that an earlier step evaluated are not evaluated again.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let loading: Promise<typeof import("./topology-graph")> | null = null;

export function loadTopologyGraph(): Promise<typeof import("./topology-graph")> {
  loading ??= (async () => {
    // zrender (ECharts' drawing layer, the version ECharts pins) alone, then ECharts' graphic utilities (the rest of
    // zrender's shapes with them) and its data store, then the rest of ECharts' core: evaluated in one step, its
    // chunk was a task of 50–140 ms after hydration on 2 cores (issue 21).
    await import("zrender/lib/zrender.js");
    await nextTask();
    await import("echarts/lib/util/graphic.js");
    await nextTask();
    await import("echarts/lib/data/SeriesData.js");
    await nextTask();
    await import("echarts/core");
    await nextTask();
    await import("@/components/primitives/echart");
    await nextTask();
    return import("./topology-graph");
  })();
  // A failed download may be retried on the next render.
  loading.catch(() => (loading = null));
  return loading;
}
