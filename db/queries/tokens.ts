import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { generateToken, hashToken, tokenHint } from "@/lib/auth/tokens";
import type { Role } from "@/lib/auth/roles";
import type { Database } from "../client";
import { apiTokens, users } from "../schema";
import type { CreatedToken, TokenSummary } from "../schema/api-token/validation";
import { recordAudit, type AuditActor } from "./audit";

type TokenRow = typeof apiTokens.$inferSelect;

function summary(row: TokenRow): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    hint: row.hint,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a token and returns it; the token itself is never stored (only its hash) and never shown again. */
export async function createApiToken(
  db: Database,
  input: { name: string; role: Role; expiresAt?: Date | null; createdBy?: string | null },
  actor: AuditActor,
): Promise<CreatedToken> {
  const token = generateToken();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        name: input.name,
        role: input.role,
        tokenHash: hashToken(token),
        hint: tokenHint(token),
        createdBy: input.createdBy ?? null,
        expiresAt: input.expiresAt ?? null,
      })
      .returning();
    if (!row) throw new Error("the token was not stored");
    const created = summary(row);
    await recordAudit(tx, {
      actor,
      action: "token.create",
      target: { type: "token", id: row.id },
      before: null,
      after: { name: created.name, role: created.role, expiresAt: created.expiresAt, hint: created.hint },
    });
    return { ...created, token };
  });
}

export async function listApiTokens(db: Database): Promise<TokenSummary[]> {
  return (await db.select().from(apiTokens).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))).map(summary);
}

/** Revokes a token; false when there is no such token. Revoking twice is harmless. */
export async function revokeApiToken(db: Database, id: number, actor: AuditActor): Promise<TokenSummary | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(apiTokens).where(eq(apiTokens.id, id)).for("update");
    if (!before) return undefined;
    if (before.revokedAt) return summary(before);
    const [after] = await tx.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, id)).returning();
    if (!after) return undefined;
    await recordAudit(tx, {
      actor,
      action: "token.revoke",
      target: { type: "token", id },
      before: { name: before.name, revokedAt: null },
      after: { name: after.name, revokedAt: after.revokedAt?.toISOString() },
    });
    return summary(after);
  });
}

/**
 * The token a bearer secret belongs to, if it is active (not revoked, not expired, and its owner, the user who
 * created it, not disabled: a disabled user's tokens are suspended with them and work again when they are enabled);
 * records its use. Tokens created from the command line have no owner.
 */
export async function findActiveToken(db: Database, token: string, now = new Date()): Promise<TokenSummary | undefined> {
  const [found] = await db
    .select({ token: apiTokens })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        // No owner (created from the command line, or the owner was deleted): null, which is not true.
        sql`${users.banned} is not true`,
      ),
    );
  const row = found?.token;
  if (!row) return undefined;
  // last-used is for people ("is this token still used?"); a minute's precision saves a write per request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
    row.lastUsedAt = now;
  }
  return summary(row);
}
