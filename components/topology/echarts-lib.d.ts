// ECharts' own modules that the topology graph loads ahead of `echarts/core`, in steps (loaders.ts): only their
// evaluation is wanted, not their exports; the package's exports give them no types of their own.
declare module "echarts/lib/util/graphic.js";
declare module "echarts/lib/data/SeriesData.js";
