import { describe, expect, it } from "vitest";
import { stableEventId } from "./ids";

const parts = { source: "api", cluster: "atlas-a3-demo", targetKey: "die:sp0-node07/3", kind: "roce-link-down", code: "81078603", beganAt: 1_767_225_600_000 };

describe("stableEventId", () => {
  it("keeps a source's own id", () => {
    expect(stableEventId({ ...parts, sourceId: "e-17" })).toBe("api:e-17");
  });

  it("derives the same id as stored events carry (ids must not change between releases)", () => {
    expect(stableEventId(parts)).toBe("api~PsMAQ7ik_Erz-9rAKqokl4");
    expect(stableEventId({ ...parts, code: null, kind: "gateway-probe-failure" })).toBe("api~R4P0tX2JI7gIHzHrCPcVuH");
  });

  it("tells apart events that differ in any part", () => {
    expect(stableEventId({ ...parts, beganAt: parts.beganAt + 1 })).not.toBe(stableEventId(parts));
    expect(stableEventId({ ...parts, targetKey: "die:sp0-node07/4" })).not.toBe(stableEventId(parts));
  });
});
