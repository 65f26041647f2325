import { describe, expect, it } from "vitest";
import { watchFaultEvents } from "./live-events";

describe("watchFaultEvents", () => {
  it("fetches again on faults, on resync, and on a reconnect after an error, not on the first open", () => {
    const source = new EventTarget();
    let fetches = 0;
    const stop = watchFaultEvents(source, () => fetches++);
    source.dispatchEvent(new Event("open"));
    expect(fetches).toBe(0);
    source.dispatchEvent(new Event("faults"));
    expect(fetches).toBe(1);
    source.dispatchEvent(new Event("resync"));
    expect(fetches).toBe(2);
    source.dispatchEvent(new Event("error"));
    expect(fetches).toBe(2);
    source.dispatchEvent(new Event("open"));
    expect(fetches).toBe(3);
    source.dispatchEvent(new Event("open"));
    expect(fetches).toBe(3);
    stop();
    for (const type of ["faults", "resync", "error", "open"]) source.dispatchEvent(new Event(type));
    expect(fetches).toBe(3);
  });
});
