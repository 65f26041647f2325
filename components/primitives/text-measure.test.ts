import { describe, expect, it } from "vitest";
import { measuredByCharacter } from "./text-measure";

/** A fake canvas: each character as wide as its code's last digit + 1, bold twice that; the calls it answered. */
function fakeCanvas() {
  const calls: [string, string][] = [];
  const measure = (text: string, font: string) => {
    calls.push([text, font]);
    const scale = font.startsWith("bold") ? 2 : 1;
    return { width: [...text].reduce((sum, c) => sum + ((c.codePointAt(0)! % 10) + 1) * scale, 0) };
  };
  return { calls, measure };
}

describe("measuredByCharacter", () => {
  it("sums the widths of an ASCII text's characters, measuring each character once per font", () => {
    const canvas = fakeCanvas();
    const measure = measuredByCharacter(canvas.measure);
    expect(measure("rank 8216", "12px sans-serif").width).toBe(canvas.measure("rank 8216", "12px sans-serif").width);
    canvas.calls.length = 0;
    expect(measure("dev 6", "12px sans-serif").width).toBe(canvas.measure("dev 6", "12px sans-serif").width);
    // "d", "e" and "v" were new to the font; " " and "6" were not (the last call is the expectation's own).
    expect(canvas.calls.map(([text]) => text)).toEqual(["d", "e", "v", "dev 6"]);
    canvas.calls.length = 0;
    expect(measure("dev 6", "bold 12px sans-serif").width).toBe(2 * measure("dev 6", "12px sans-serif").width);
    expect(canvas.calls.map(([text, font]) => `${text}|${font}`)).toEqual(["d|bold 12px sans-serif", "e|bold 12px sans-serif", "v|bold 12px sans-serif", " |bold 12px sans-serif", "6|bold 12px sans-serif"]);
  });

  it("answers zrender's wide-character probe with the font's size, without the canvas", () => {
    const canvas = fakeCanvas();
    const measure = measuredByCharacter(canvas.measure);
    expect(measure("国", "bold 13px sans-serif").width).toBe(13);
    expect(measure("国").width).toBe(12);
    expect(canvas.calls).toEqual([]);
  });

  it("leaves any other text to the canvas", () => {
    const canvas = fakeCanvas();
    const measure = measuredByCharacter(canvas.measure);
    expect(measure("链路 1", "12px sans-serif").width).toBe(canvas.measure("链路 1", "12px sans-serif").width);
    expect(canvas.calls[0]).toEqual(["链路 1", "12px sans-serif"]);
  });
});
