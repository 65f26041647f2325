import { storable } from "@/lib/text-safety";
import { z } from "zod";
import { actorTypes } from "./constants";

export const auditFilterSchema = z.object({
  action: storable(z.string().max(100)).optional(),
  actor: storable(z.string().max(100)).optional(),
  actorType: z.enum(actorTypes).optional(),
  target: storable(z.string().max(200)).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorType: z.enum(actorTypes),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  details: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ total: z.number().int(), entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;
