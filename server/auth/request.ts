import "server-only";
import ipaddr from "ipaddr.js";
import { isTrustedProxy } from "@/lib/auth/trusted-proxies";

/**
 * Headers the console's server process stamps on every request from its socket (scripts/peer-address.mjs, loaded by
 * scripts/serve.ts), overwriting whatever a client sent under these names. Next.js gives neither route handlers nor
 * proxy.ts the connection's address: it only fills `X-Forwarded-For` with it when the client sent none, so a client
 * can choose its own.
 */
export const peerAddressHeader = "x-rankscope-peer-address";
export const peerSchemeHeader = "x-rankscope-peer-scheme";

/** The address in canonical form (IPv4-mapped IPv6 as IPv4), or undefined when it is not an address. */
function normalise(value: string | null | undefined): string | undefined {
  const text = value?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!text || !ipaddr.isValid(text)) return undefined;
  return ipaddr.process(text).toString();
}

/** Whether the connection came from a configured reverse proxy, whose X-Forwarded-* headers are then believed. */
function fromTrustedProxy(headers: Headers): boolean {
  const peer = normalise(headers.get(peerAddressHeader));
  return peer !== undefined && isTrustedProxy(peer);
}

const firstValue = (value: string | null) => value?.split(",")[0]?.trim() || undefined;

/**
 * The client's address, for the audit log and the per-address sign-in limits: the connection's address, or, when
 * that is a trusted proxy, the nearest `X-Forwarded-For` entry (from the right) that is not a trusted proxy.
 * Without the server's stamp (route handlers called in-process by tests, or `next start` run by hand rather than
 * through scripts/serve.ts) the last `X-Forwarded-For` entry, which Next.js sets from the connection when absent.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = (headers.get("x-forwarded-for") ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  const peer = normalise(headers.get(peerAddressHeader));
  if (peer === undefined) return normalise(forwarded[forwarded.length - 1]) ?? "unknown";
  if (!isTrustedProxy(peer)) return peer;
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = normalise(forwarded[i]);
    // Garbage in the chain: the hop that added it is the last one we can vouch for.
    if (hop === undefined) return normalise(forwarded[i + 1]) ?? peer;
    if (!isTrustedProxy(hop)) return hop;
  }
  return normalise(forwarded[0]) ?? peer;
}

/**
 * The origin the client addressed: scheme and host of the connection (`Host`; TLS as stamped by the server, else the
 * URL's scheme), or what a trusted proxy says in `X-Forwarded-Proto` / `X-Forwarded-Host`. A client's own
 * X-Forwarded-* headers are ignored.
 */
export function requestOrigin(headers: Headers, url?: string): string {
  const own = new URL(url ?? "http://localhost");
  const proxied = fromTrustedProxy(headers);
  const scheme = (proxied && firstValue(headers.get("x-forwarded-proto"))) || headers.get(peerSchemeHeader) || own.protocol.replace(/:$/, "");
  const host = (proxied && firstValue(headers.get("x-forwarded-host"))) || headers.get("host") || own.host;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return own.origin;
  }
}

/** Whether the request reached us over HTTPS (directly, or through a trusted proxy that says so). */
export function isSecureRequest(headers: Headers, url?: string): boolean {
  return requestOrigin(headers, url).startsWith("https:");
}

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isUnsafeMethod(method: string): boolean {
  return unsafeMethods.has(method.toUpperCase());
}

/**
 * CSRF check for cookie-authenticated mutations: the browser must say the request comes from this site, by an
 * Origin header equal to the request's own origin (scheme, host and port), or failing that by
 * `Sec-Fetch-Site: same-origin`. Requests that carry neither are not from a browser page of ours and must use a
 * bearer token instead.
 */
export function isSameOrigin(headers: Headers, url: string): boolean {
  const origin = headers.get("origin");
  if (origin && origin !== "null") {
    try {
      return new URL(origin).origin === requestOrigin(headers, url);
    } catch {
      return false;
    }
  }
  return headers.get("sec-fetch-site") === "same-origin";
}
