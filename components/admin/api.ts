import { z } from "zod";
import { ApiRequestError, fetchJson } from "@/components/primitives/fetch-json";
import { createdTokenSchema, tokenSummarySchema, type CreatedToken, type TokenSummary } from "@/db/schema/api-token/validation";
import { auditPageSchema, type AuditPage } from "@/db/schema/audit/validation";
import { unlockResultSchema, userSummarySchema, type UserSummary } from "@/db/schema/user/validation";

export const usersQueryKey = ["admin", "users"] as const;
export const tokensQueryKey = ["admin", "tokens"] as const;
export const auditQueryKey = (query: string) => ["admin", "audit", query] as const;

async function send<T>(url: string, method: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  return fetchJson(url, schema, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
}

export const fetchUsers = (): Promise<UserSummary[]> => fetchJson("/api/v1/users", z.array(userSummarySchema));
export const createUser = (input: { username: string; name?: string; role: string; password: string }) =>
  send("/api/v1/users", "POST", userSummarySchema, input);
export const updateUser = (id: string, change: { role?: string; disabled?: boolean; password?: string }) =>
  send(`/api/v1/users/${encodeURIComponent(id)}`, "PATCH", userSummarySchema, change);

/** Forgets the user's failed sign-ins, so the right password works again at once. */
export const unlockUser = (id: string) => send(`/api/v1/users/${encodeURIComponent(id)}/unlock`, "POST", unlockResultSchema);

export const fetchTokens = (): Promise<TokenSummary[]> => fetchJson("/api/v1/tokens", z.array(tokenSummarySchema));
export const createToken = (input: { name: string; role: string; expiresAt: string | null }): Promise<CreatedToken> =>
  send("/api/v1/tokens", "POST", createdTokenSchema, input);
export const revokeToken = (id: number) => send(`/api/v1/tokens/${id}`, "DELETE", tokenSummarySchema);

export const fetchAudit = (query: string): Promise<AuditPage> => fetchJson(`/api/v1/audit?${query}`, auditPageSchema);

export function errorText(error: unknown): string {
  return error instanceof ApiRequestError || error instanceof Error ? error.message : String(error);
}
