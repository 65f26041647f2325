import * as echarts from "echarts/core";

interface TextElement {
  incremental: number;
  update(): void;
  childrenRef(): { incremental: number }[];
}

/**
 * Has a text element's parts drawn on the layer of the text itself: zrender draws a text through child spans, and
 * copies its z levels to them on every update but not its `incremental` mark (zrender/lib/graphic/Text.js, update).
 * A progressive series' chunk marks its elements incremental (echarts/lib/chart/custom/CustomView.js,
 * incrementalRender) so that each frame draws only the new ones on a layer it never clears; the spans of a label,
 * unmarked, went to the layer above, which every frame cleared and filled again with every label drawn so far and every
 * link: the 8th frame of a 16,384-NPU rack row drew 235 labels for its 32 new ones (issue 21: frames of 60–130 ms).
 * Installed once, for every chart, by the ECharts wrapper (echart.tsx).
 */
export function drawTextSpansOnTheirTextsLayer(): void {
  const text = echarts.graphic.Text.prototype as unknown as TextElement & { incrementalSpans?: true };
  if (text.incrementalSpans) return;
  const update = text.update;
  text.update = function (this: TextElement) {
    update.call(this);
    for (const span of this.childrenRef()) span.incremental = this.incremental;
  };
  text.incrementalSpans = true;
}
