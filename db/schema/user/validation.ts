import { storable } from "@/lib/text-safety";
import { z } from "zod";
import { passwordLength, roles, usernamePattern } from "./constants";

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(usernamePattern, "3 to 30 lower-case letters, digits, dots and underscores");
export const passwordSchema = z.string().min(passwordLength.min).max(passwordLength.max);

export const signInSchema = z.object({
  username: storable(z.string().trim().toLowerCase().min(1).max(64)),
  password: z.string().min(1).max(passwordLength.max),
});

export const userCreateSchema = z.object({
  username: usernameSchema,
  name: storable(z.string().trim().min(1).max(200)).optional(),
  role: z.enum(roles),
  password: passwordSchema,
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .object({
    role: z.enum(roles).optional(),
    disabled: z.boolean().optional(),
    password: passwordSchema.optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined || v.password !== undefined, "nothing to change");
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** What the users API returns: never a password hash. */
export const userSummarySchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  role: z.enum(roles),
  disabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** The answer of POST /api/v1/users/{id}/unlock. */
export const unlockResultSchema = z.object({ id: z.string(), username: z.string(), failuresCleared: z.number().int() });
export type UnlockResult = z.infer<typeof unlockResultSchema>;
