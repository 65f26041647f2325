import { describe, expect, it } from "vitest";
import { decideRead, isLsn, lagHintMs, lsnBytes, type ReplicaStatus } from "./read-database";

const at = 1_000_000;
const standby = (replayLsn: string, primaryLsn: string | null, lagMs: number | null = 0): ReplicaStatus => ({
  state: "standby",
  at,
  replayLsn,
  primaryLsn,
  replayedAt: lagMs === null ? null : new Date(at - lagMs),
  lagMs,
});

describe("WAL positions", () => {
  it("compare by their 64-bit value, not as text", () => {
    expect(lsnBytes("0/FFFFFFFF") < lsnBytes("1/0")).toBe(true);
    expect(lsnBytes("A/10") > lsnBytes("9/FFFFFFFF")).toBe(true);
    expect(lsnBytes("16/b374d848")).toBe(lsnBytes("16/B374D848"));
    expect(isLsn("16/B374D848")).toBe(true);
    for (const bad of ["", "16", "16/", "/1", "1/2/3", "G/1", "123456789/1", "1/0; Path=/"]) expect(isLsn(bad), bad).toBe(false);
  });
});

describe("decideRead", () => {
  it("reads the primary without a replica, with one down or not a standby", () => {
    expect(decideRead(undefined, null, at).reason).toBe("no-replica");
    expect(decideRead({ state: "down", at, error: "refused" }, null, at)).toEqual({ source: "primary", reason: "replica-down", asOf: null });
    expect(decideRead({ state: "not-standby", at }, null, at).source).toBe("primary");
  });

  it("reads the replica only once it has replayed the caller's write", () => {
    expect(decideRead(standby("1/100", "1/200"), "1/180", at).reason).toBe("behind-caller");
    expect(decideRead(standby("1/180", "1/200"), "1/180", at).source).toBe("replica");
    expect(decideRead(standby("2/0", "2/0"), "1/FFFFFFFF", at).source).toBe("replica");
  });

  it("dates the replica's data only when it is behind the primary by the hint's threshold", () => {
    expect(decideRead(standby("1/100", "1/200", lagHintMs + 1), null, at).asOf).toEqual(new Date(at - lagHintMs - 1));
    expect(decideRead(standby("1/100", "1/200", lagHintMs - 200), null, at).asOf).toBeNull();
    // A status kept for a while ages with it.
    expect(decideRead(standby("1/100", "1/200", lagHintMs - 200), null, at + 300).asOf).not.toBeNull();
    expect(decideRead(standby("1/200", "1/200", 3_600_000), null, at).asOf).toBeNull();
    expect(decideRead(standby("1/100", null, 3_600_000), null, at).asOf).toBeNull();
  });
});
