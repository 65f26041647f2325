import { and, count, desc, eq, gte, ilike, lte, or, type SQL } from "drizzle-orm";
import { compactChange } from "@/lib/audit/diff";
import type { Database } from "../client";
import { auditLog } from "../schema";
import type { ActorType } from "../schema/audit/constants";
import type { AuditEntry, AuditFilter, AuditPage } from "../schema/audit/validation";

/** Who acts and from where; built once per request (server/auth/audit.ts `auditActor`) and passed to every write. */
export interface AuditActor {
  type: ActorType;
  id?: string | null;
  name?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

export const systemActor: AuditActor = { type: "system", name: "system" };

export interface AuditRecord {
  actor: AuditActor;
  /** `<entity>.<verb>`, e.g. `cluster.update`, `token.revoke`, `auth.sign_in_failed`. */
  action: string;
  target?: { type: string; id: string | number } | undefined;
  /** For changes: the record before and after; only the changed fields are kept, secrets masked. */
  before?: Record<string, unknown> | null | undefined;
  after?: Record<string, unknown> | null | undefined;
  details?: Record<string, unknown> | undefined;
}

/** Anything that can run an insert: the database or a transaction. */
type Executor = Pick<Database, "insert">;

/**
 * Appends one entry to the audit log. Call it inside the transaction of the change it records
 * (`db.transaction(async (tx) => { …write…; await recordAudit(tx, {...}) })`), so the change and its record
 * commit or roll back together.
 */
export async function recordAudit(tx: Executor, record: AuditRecord): Promise<void> {
  await auditInsert(tx, record);
}

/** The INSERT of one audit entry, to await or to fold into a larger statement with `.toSQL()`. */
export function auditInsert(tx: Executor, record: AuditRecord) {
  const change = record.before !== undefined || record.after !== undefined ? compactChange(record.before, record.after) : undefined;
  return tx.insert(auditLog).values({
    actorType: record.actor.type,
    actorId: record.actor.id ?? null,
    actorName: record.actor.name ?? null,
    action: record.action,
    targetType: record.target?.type ?? null,
    targetId: record.target === undefined ? null : String(record.target.id),
    ip: record.actor.ip ?? null,
    userAgent: record.actor.userAgent?.slice(0, 500) ?? null,
    before: change?.before ?? null,
    after: change?.after ?? null,
    details: record.details ?? null,
  });
}

export async function listAudit(db: Database, filter: AuditFilter): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(ilike(auditLog.action, `${escapeLike(filter.action)}%`));
  if (filter.actor) conditions.push(ilike(auditLog.actorName, `%${escapeLike(filter.actor)}%`));
  if (filter.actorType) conditions.push(eq(auditLog.actorType, filter.actorType));
  if (filter.target) {
    const target = or(ilike(auditLog.targetId, escapeLike(filter.target)), ilike(auditLog.targetType, escapeLike(filter.target)));
    if (target) conditions.push(target);
  }
  if (filter.from) conditions.push(gte(auditLog.at, new Date(filter.from)));
  if (filter.to) conditions.push(lte(auditLog.at, new Date(filter.to)));
  const where = conditions.length ? and(...conditions) : undefined;
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return {
    total: total?.n ?? 0,
    entries: rows.map((row): AuditEntry => ({ ...row, actorType: row.actorType as ActorType, at: row.at.toISOString() })),
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
