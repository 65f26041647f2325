import "server-only";

/**
 * The client's address, for the audit log and the per-address sign-in limits: the last X-Forwarded-For entry (the
 * one the nearest proxy added). Next.js fills the header with the connection's address when the request has none;
 * a client talking to Next.js directly can send its own, so behind no proxy the address is only as good as the
 * client's word (the per-username back-off does not depend on it). Behind a reverse proxy, have it set the header.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded) {
    const parts = forwarded.split(",").map((part) => part.trim()).filter(Boolean);
    const last = parts[parts.length - 1];
    if (last) return last.replace(/^::ffff:/, "");
  }
  return headers.get("x-real-ip") ?? "unknown";
}

/** Whether the request reached us over HTTPS (directly, or through a proxy that says so). */
export function isSecureRequest(headers: Headers, url?: string): boolean {
  if (url?.startsWith("https:")) return true;
  return headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);
export function isUnsafeMethod(method: string): boolean {
  return unsafeMethods.has(method.toUpperCase());
}

/**
 * CSRF check for cookie-authenticated mutations: the browser must say the request comes from this site, by an
 * Origin header equal to the request's own origin, or failing that by `Sec-Fetch-Site: same-origin`. Requests
 * that carry neither are not from a browser page of ours and must use a bearer token instead.
 */
export function isSameOrigin(headers: Headers, url: string): boolean {
  const origin = headers.get("origin");
  const own = new URL(url);
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? own.host;
  if (origin && origin !== "null") {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return headers.get("sec-fetch-site") === "same-origin";
}
