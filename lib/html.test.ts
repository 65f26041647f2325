import { describe, expect, it } from "vitest";
import { escapeHtml } from "./html";

describe("escapeHtml", () => {
  it("turns the characters HTML gives meaning to into references, and leaves the rest", () => {
    expect(escapeHtml(`<b title="x">Tom & Jerry's</b> 中文`)).toBe("&#60;b title=&#34;x&#34;&#62;Tom &#38; Jerry&#39;s&#60;/b&#62; 中文");
  });
});
