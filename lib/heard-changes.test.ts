import { describe, expect, it } from "vitest";
import { covers, HeardChanges } from "./heard-changes";
import { parseSnapshot } from "./xact-snapshot";

const s = (text: string) => parseSnapshot(text);

describe("heard changes", () => {
  it("are covered by a snapshot that sees every transaction heard of the cluster, and only that cluster's", () => {
    const heard = new HeardChanges();
    heard.heard(["atlas", "1"], 750n);
    heard.heard(["other", "2"], 760n);
    expect(covers(s("748:752:748"), heard.requirement("atlas"))).toBe(true);
    expect(covers(s("748:752:748"), heard.requirement("1"))).toBe(true);
    expect(covers(s("748:752:748,750"), heard.requirement("atlas"))).toBe(false); // 750 ran when it was taken
    expect(covers(s("748:750:748"), heard.requirement("atlas"))).toBe(false); // 750 had not started
    expect(covers(s("748:752:748"), heard.requirement("other"))).toBe(false);
    expect(covers(s("748:752:748"), heard.requirement("never"))).toBe(true);
  });

  it("keep what was asked: a change heard later is not required of an answer asked for before", () => {
    const heard = new HeardChanges();
    heard.heard(["atlas"], 750n);
    const asked = heard.requirement("atlas");
    heard.heard(["atlas"], 755n);
    expect(covers(s("752:752:"), asked)).toBe(true);
    expect(covers(s("752:752:"), heard.requirement("atlas"))).toBe(false);
  });

  it("fold ids heard long ago into a floor the snapshot's xmin must pass", () => {
    let now = 0;
    const heard = new HeardChanges({ keepMs: 1_000, maxPerCluster: 3, now: () => now });
    heard.heard(["atlas"], 700n);
    now = 2_000;
    heard.heard(["atlas"], 800n);
    // 700 is folded: visible in this snapshot (not running), but a transaction older than it ran (xmin 650): refused.
    expect(covers(s("650:900:650"), heard.requirement("atlas"))).toBe(false);
    expect(covers(s("701:900:701"), heard.requirement("atlas"))).toBe(true);
    for (const xid of [810n, 820n, 830n]) heard.heard(["atlas"], xid);
    const requirement = heard.requirement("atlas");
    expect(requirement.xids).toEqual([810n, 820n, 830n]);
    expect(requirement.floor).toBe(800n);
  });

  it("require every barrier, and nothing covers while one is being taken", () => {
    const heard = new HeardChanges();
    heard.barrier("listen", s("748:752:748,750"));
    expect(covers(s("750:760:750"), heard.requirement("atlas"))).toBe(true);
    expect(covers(s("748:751:748,750"), heard.requirement("atlas"))).toBe(false);
    heard.barrier("written", "pending");
    expect(covers(s("900:900:"), heard.requirement("atlas"))).toBe(false);
    heard.barrier("written", s("800:800:"));
    expect(covers(s("799:900:799"), heard.requirement("atlas"))).toBe(false);
    expect(covers(s("800:900:"), heard.requirement("atlas"))).toBe(true);
  });
});
