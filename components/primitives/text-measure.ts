/** zrender's own default (zrender/lib/core/platform.js), for a text measured without a font. */
const DEFAULT_FONT = "12px sans-serif";
/** The character zrender measures, once per font, as the width of a wide (CJK) character and its line height. */
const WIDE_PROBE = "国";
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

type Measure = (text: string, font: string) => { width: number };

/**
 * ECharts' text measurement (zrender's `platformApi.measureText`) with fewer calls to the canvas: every label's line
 * is measured once per font and text, a canvas `measureText` each (a server view's labels: some 470 calls, 0.1–0.2 ms
 * each at load 17, profiled), and a font's first measurement starts with the wide probe, which makes the browser look
 * for a font with a CJK glyph (41 and 59 ms in one topology page at load 17, a few ms in others; issue 21). So:
 * - a text of printable ASCII (ids, addresses, counts: the topology's labels) is the sum of its characters' widths,
 *   each measured once per font by `measure` (kerning left out: under a pixel on a label, which is cut short by
 *   the same per-character widths in zrender itself);
 * - the wide probe is the font's size (a full-width character is 1 em wide);
 * - any other text is measured by `measure`.
 */
export function measuredByCharacter(measure: Measure): (text: string, font?: string) => { width: number } {
  const widths = new Map<string, Float64Array>();
  return (text, font = DEFAULT_FONT) => {
    if (text === WIDE_PROBE) {
      const size = /(\d+(?:\.\d+)?)px/.exec(font);
      if (size) return { width: Number(size[1]) };
    }
    if (!PRINTABLE_ASCII.test(text)) return measure(text, font);
    let table = widths.get(font);
    if (!table) {
      table = new Float64Array(0x7f - 0x20).fill(-1);
      widths.set(font, table);
    }
    let width = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i) - 0x20;
      if (table[code]! < 0) table[code] = measure(text[i]!, font).width;
      width += table[code]!;
    }
    return { width };
  };
}

/** A canvas's `measureText`, its font set only when it changes (as zrender's own does). */
export function canvasMeasure(): Measure {
  let context: CanvasRenderingContext2D | null = null;
  let current = "";
  return (text, font) => {
    context ??= document.createElement("canvas").getContext("2d")!;
    if (current !== font) context.font = current = font;
    return context.measureText(text);
  };
}
