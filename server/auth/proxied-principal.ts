import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isRole } from "@/lib/auth/roles";
import type { Principal } from "./principal";

/*
 * The caller proxy.ts found, handed to the route handler or page so that a request looks its session (or token) up
 * once, not twice (issue 20, item 7: the load bench; every lookup is a query on the primary). Next.js passes data
 * from the proxy to the handler only as request headers (`NextResponse.next({ request: { headers } })`), and a
 * client can send any header, including this one; the routes that skip the proxy when they carry a body
 * (`config.matcher` in proxy.ts) get the client's headers untouched. So the value is sealed: an HMAC-SHA256 with a
 * key made at random in this process (kept on globalThis, which the proxy and the handlers share), over the
 * principal, the time it was found and the request's own Cookie and Authorization headers. A value the client sent
 * (or one of another request, or older than a minute) does not verify and the handler looks the caller up itself,
 * as it did before; the proxy also replaces or removes whatever the client sent under this name.
 */
export const principalHeader = "x-rankscope-principal";

/** A request waits in queues for seconds under load; past this the handler looks the caller up again. */
const maxAgeMs = 60_000;

const globalForKey = globalThis as typeof globalThis & { rankscopePrincipalKey?: Buffer };
const key = () => (globalForKey.rankscopePrincipalKey ??= randomBytes(32));

function mac(payload: string, headers: Headers): Buffer {
  return createHmac("sha256", key())
    .update(payload)
    .update("\n")
    .update(headers.get("cookie") ?? "")
    .update("\n")
    .update(headers.get("authorization") ?? "")
    .digest();
}

/** The header's value for `principal` (null: nobody is signed in) found for a request with `headers`. */
export function sealPrincipal(principal: Principal | null, headers: Headers, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ p: principal, at: now })).toString("base64url");
  return `${payload}.${mac(payload, headers).toString("base64url")}`;
}

function isPrincipal(value: unknown): value is Principal {
  if (value === null || typeof value !== "object") return false;
  const p = value as Record<string, unknown>;
  return (p.kind === "user" || p.kind === "token") && typeof p.role === "string" && isRole(p.role);
}

/**
 * What the proxy found for this request (`principal` null: nobody signed in), or undefined when the header is
 * missing, forged, of another request or too old: then the caller must be looked up.
 */
export function proxiedPrincipal(headers: Headers, now = Date.now()): { principal: Principal | null } | undefined {
  const value = headers.get(principalHeader);
  const dot = value?.indexOf(".") ?? -1;
  if (!value || dot < 1) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = mac(payload, headers);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let sealed: { p?: unknown; at?: unknown };
  try {
    sealed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { p?: unknown; at?: unknown };
  } catch {
    return undefined;
  }
  if (typeof sealed.at !== "number" || now - sealed.at > maxAgeMs || sealed.at > now + 1_000) return undefined;
  if (sealed.p === null) return { principal: null };
  return isPrincipal(sealed.p) ? { principal: sealed.p } : undefined;
}

/** `headers` with this request's principal sealed in, whatever the client sent under the name. */
export function withProxiedPrincipal(headers: Headers, principal: Principal | null): Headers {
  const forwarded = new Headers(headers);
  forwarded.set(principalHeader, sealPrincipal(principal, headers));
  return forwarded;
}
