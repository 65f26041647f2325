import * as echarts from "echarts/core";
import { describe, expect, it } from "vitest";
import { drawTextSpansOnTheirTextsLayer } from "./incremental-text";

type Spans = { childrenRef(): { incremental: number }[]; incremental: number };

describe("drawTextSpansOnTheirTextsLayer", () => {
  it("gives a text's spans its incremental mark, as progressive rendering sets it after the text was made", () => {
    drawTextSpansOnTheirTextsLayer();
    drawTextSpansOnTheirTextsLayer();
    const text = new echarts.graphic.Text({ style: { text: "rack128 · 8 dies\n3 faulty" } });
    const spans = text as unknown as Spans;
    text.update();
    expect(spans.childrenRef().length).toBeGreaterThan(0);
    expect(spans.childrenRef().every((span) => !span.incremental)).toBe(true);
    spans.incremental = 7;
    text.update();
    expect(spans.childrenRef().map((span) => span.incremental)).toEqual(spans.childrenRef().map(() => 7));
  });
});
