import { z } from "zod";
import { actorTypes } from "@/db/schema/audit/constants";

/** The audit page's URL state: filters and page, so a filtered view can be linked. Bad values are dropped. */
export const auditSearchParams = z.object({
  action: z.string().max(100).optional().catch(undefined),
  actor: z.string().max(100).optional().catch(undefined),
  actorType: z.enum(actorTypes).optional().catch(undefined),
  target: z.string().max(200).optional().catch(undefined),
  from: z.iso.datetime({ offset: true }).optional().catch(undefined),
  to: z.iso.datetime({ offset: true }).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type AuditSearchParams = z.infer<typeof auditSearchParams>;

/** The same state as a query string (for the URL and for GET /api/v1/audit). */
export function auditQueryString(params: AuditSearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "" || (key === "page" && value === 1)) continue;
    query.set(key, String(value));
  }
  return query.toString();
}
