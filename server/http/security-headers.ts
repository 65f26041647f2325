/**
 * Security headers for every response. Pages get a Content Security Policy with a per-request nonce: Next.js puts
 * it on its own scripts (it reads it from the request's CSP header), so no inline script runs without it.
 * Styles keep 'unsafe-inline' because Ant Design injects its CSS-in-JS as <style> elements.
 */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean; secure: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.secure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** API answers are data, never documents: nothing may be loaded or framed from them. */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(secure: boolean): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ...(secure ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/** Puts the security headers and `csp` on a response (proxy.ts for what it sees; unproxiedRoute() for the rest). */
export function withSecurityHeaders<T extends Response>(response: T, secure: boolean, csp: string): T {
  for (const [name, value] of Object.entries(securityHeaders(secure))) response.headers.set(name, value);
  response.headers.set("content-security-policy", csp);
  return response;
}
