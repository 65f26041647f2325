import { storable } from "@/lib/text-safety";
import { z } from "zod";
import { roles } from "./constants";

export const tokenCreateSchema = z.object({
  name: storable(z.string().trim().min(1).max(100)),
  role: z.enum(roles),
  /** ISO date-time; absent or null: the token does not expire. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .refine((v) => v == null || Date.parse(v) > Date.now(), "the expiry must be in the future"),
});
export type TokenCreate = z.infer<typeof tokenCreateSchema>;

export const tokenSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(roles),
  hint: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type TokenSummary = z.infer<typeof tokenSummarySchema>;

/** The answer to a create: the only time the token itself is shown. */
export const createdTokenSchema = tokenSummarySchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
