import { describe, expect, it } from "vitest";
import { coversSnapshot, formatSnapshot, parseSnapshot, parseXid, xidVisible } from "./xact-snapshot";

const s = (text: string) => parseSnapshot(text);

describe("transaction snapshots", () => {
  it("read and write PostgreSQL's text form", () => {
    expect(s("748:752:748,750")).toEqual({ xmin: 748n, xmax: 752n, xip: [748n, 750n] });
    expect(s("800:800:")).toEqual({ xmin: 800n, xmax: 800n, xip: [] });
    expect(formatSnapshot(s("748:752:748,750"))).toBe("748:752:748,750");
    // xid8 goes past 2^53: bigint, never rounded.
    expect(s("9007199254740993:9007199254740995:9007199254740993").xmin).toBe(9007199254740993n);
    for (const bad of ["", "1:2", "a:b:", "1:2:3,", "1:2:x"]) expect(() => s(bad)).toThrow();
    expect([parseXid("751"), parseXid("x"), parseXid(undefined), parseXid(751)]).toEqual([751n, undefined, undefined, undefined]);
  });

  it("see a committed transaction below xmin, or below xmax and not running", () => {
    const snapshot = s("748:752:748,750");
    const visible = [740n, 747n, 748n, 749n, 750n, 751n, 752n, 760n].map((xid) => xidVisible(snapshot, xid));
    expect(visible).toEqual([true, true, false, true, false, true, false, false]);
  });

  it("cover a barrier only when they see everything committed when it was taken", () => {
    const barrier = s("748:752:748,750");
    expect(coversSnapshot(s("748:752:748,750"), barrier)).toBe(true); // the same
    expect(coversSnapshot(s("750:760:750,755"), barrier)).toBe(true); // later: 748 ended, 750 still runs (not required)
    expect(coversSnapshot(s("760:760:"), barrier)).toBe(true);
    expect(coversSnapshot(s("748:751:748,750"), barrier)).toBe(false); // does not see 751, committed at the barrier
    expect(coversSnapshot(s("748:752:748,749,750"), barrier)).toBe(false); // 749 was running then, committed at the barrier
    expect(coversSnapshot(s("745:760:745,748"), barrier)).toBe(false); // 745 committed before the barrier, running here
  });
});
