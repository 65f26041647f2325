/**
 * Whether the request's `Prefer` header (RFC 7240 §2) asks for `preference`: comma-separated preferences, each a
 * token (case-insensitive) with an optional value and parameters (`respond-async, wait=10`; `respond-async; x=y`).
 * The header may be sent more than once (joined with commas by the Fetch API).
 */
export function prefers(request: Request, preference: string): boolean {
  const header = request.headers.get("prefer");
  if (!header) return false;
  return header.split(",").some((entry) => entry.split(";")[0]!.split("=")[0]!.trim().toLowerCase() === preference);
}
