import { describe, expect, it } from "vitest";
import { generateToken, hashToken, looksLikeToken, tokenHint, tokenMatches, tokenPrefix } from "./tokens";

describe("API tokens", () => {
  it("are long, random and recognisable", () => {
    const tokens = new Set(Array.from({ length: 200 }, generateToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token.startsWith(tokenPrefix)).toBe(true);
      expect(looksLikeToken(token)).toBe(true);
    }
    expect(looksLikeToken("rsk_short")).toBe(false);
  });

  it("are stored as a SHA-256 hash that does not contain the token", () => {
    const token = generateToken();
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(tokenPrefix.length, tokenPrefix.length + 8));
    expect(hashToken(token)).toBe(hash);
    expect(tokenMatches(token, hash)).toBe(true);
    expect(tokenMatches(generateToken(), hash)).toBe(false);
    expect(tokenMatches(`${token}x`, hash)).toBe(false);
  });

  it("show only a short hint", () => {
    const token = generateToken();
    expect(tokenHint(token)).toBe(`${token.slice(0, 10)}…`);
  });
});
