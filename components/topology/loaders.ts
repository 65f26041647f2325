import { loadInSteps } from "@/components/primitives/load-in-steps";

/**
 * The topology graph's code: zrender (ECharts' drawing layer, the version ECharts pins), then ECharts' graphic
 * utilities (the rest of zrender's shapes with them) and its data store, then the rest of ECharts' core, the canvas
 * renderer, and the graph with its series and components. ECharts' core evaluated in one step was a task of 50–140 ms
 * after hydration on 2 cores.
 */
export const loadTopologyGraph = loadInSteps(
  [
    () => import("zrender/lib/zrender.js"),
    () => import("echarts/lib/util/graphic.js"),
    () => import("echarts/lib/data/SeriesData.js"),
    () => import("echarts/core"),
    () => import("@/components/primitives/echart"),
  ],
  () => import("./topology-graph"),
);
// Every page that imports this module draws the graph at once (the topology and job pages): its code is fetched and
// evaluated while the page hydrates, step by step between React's own tasks, instead of after. A failure is tried
// again, and shown, when the page asks for the graph.
if (typeof window !== "undefined") loadTopologyGraph().catch(() => undefined);

/**
 * The server view's die table: antd's Checkbox and Tree (its Table's selection and filter menus) before the Table
 * itself; its chunk in one step was a task of 50–105 ms after hydration on 2 cores.
 */
export const loadDieTable = loadInSteps([() => import("antd/es/checkbox"), () => import("antd/es/tree")], () => import("./die-table"));
