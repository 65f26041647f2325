import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every Rankscope API token starts with this, so secret scanners and people can recognise one. */
export const tokenPrefix = "rsk_";
const tokenPattern = /^rsk_[A-Za-z0-9_-]{43}$/;

/** A new API token: 32 random bytes (256 bits) from the OS CSPRNG, base64url. */
export function generateToken(): string {
  return `${tokenPrefix}${randomBytes(32).toString("base64url")}`;
}

export function looksLikeToken(value: string): boolean {
  return tokenPattern.test(value);
}

/**
 * What is stored: SHA-256 of the token. A token carries 256 bits of randomness, so a fast hash is enough (there
 * is nothing to brute-force, unlike a password) and lets a request find its token with one indexed lookup.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function tokenMatches(token: string, storedHash: string): boolean {
  const a = Buffer.from(hashToken(token), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The first characters of a token, shown in lists so people can tell tokens apart. */
export function tokenHint(token: string): string {
  return `${token.slice(0, tokenPrefix.length + 6)}…`;
}
