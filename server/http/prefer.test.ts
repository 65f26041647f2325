import { describe, expect, it } from "vitest";
import { prefers } from "./prefer";

const asking = (prefer?: string) => new Request("http://localhost/", prefer === undefined ? {} : { headers: { prefer } });

describe("prefers (RFC 7240 Prefer)", () => {
  it("finds a preference among others, whatever its case, value or parameters", () => {
    expect(prefers(asking("respond-async"), "respond-async")).toBe(true);
    expect(prefers(asking("wait=10, Respond-Async"), "respond-async")).toBe(true);
    expect(prefers(asking("respond-async; foo=bar"), "respond-async")).toBe(true);
    expect(prefers(asking(" return=minimal ,respond-async=1"), "respond-async")).toBe(true);
  });

  it("is false without the header or the preference", () => {
    expect(prefers(asking(), "respond-async")).toBe(false);
    expect(prefers(asking("return=minimal, wait=5"), "respond-async")).toBe(false);
    expect(prefers(asking("respond-asynchronously"), "respond-async")).toBe(false);
  });
});
