import "server-only";
import { DomainError } from "@/lib/errors";
import { unstorableUrlPart } from "@/lib/text-safety";

/**
 * Refuses a request whose query parameters or path hold text the database cannot store (`?action=%00` made
 * PostgreSQL fail with a 500): 422 `invalid_text` naming the parameter. Called once by route() for every API route.
 */
export function assertStorableUrl(request: Request): void {
  const bad = unstorableUrlPart(new URL(request.url));
  if (!bad) return;
  const where = bad.name === "path" ? "the path" : `query parameter ${JSON.stringify(bad.name)}`;
  throw new DomainError("invalid", `${where} ${bad.problem}`, { code: "invalid_text", details: { parameter: bad.name } });
}
