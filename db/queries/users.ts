import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, asc, count, eq, max, ne, or, isNull } from "drizzle-orm";
import type { Role } from "@/lib/auth/roles";
import { DomainError } from "@/lib/errors";
import type { Database } from "../client";
import { accounts, sessions, users } from "../schema";
import { placeholderEmailDomain } from "../schema/user/constants";
import type { UserSummary } from "../schema/user/validation";
import { recordAudit, type AuditActor } from "./audit";

/** A user change that would clash with another account (a taken name, the last admin): the API answers 409 conflict. */
export class UserConflictError extends DomainError {
  constructor(message: string) {
    super("conflict", message);
    this.name = "UserConflictError";
  }
}

/** Creates a user with a password (hashed by better-auth's scrypt, the same code that checks it at sign-in). */
export async function createUser(
  db: Database,
  input: { username: string; password: string; role: Role; name?: string | undefined },
  actor: AuditActor,
): Promise<UserSummary> {
  const username = input.username.toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (existing) throw new UserConflictError(`a user named ${username} already exists`);
    const id = randomUUID();
    const [row] = await tx
      .insert(users)
      .values({
        id,
        name: input.name ?? username,
        email: `${username}@${placeholderEmailDomain}`,
        username,
        displayUsername: username,
        role: input.role,
      })
      .returning();
    if (!row) throw new Error("the user was not stored");
    await tx.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash, updatedAt: new Date() });
    await recordAudit(tx, {
      actor,
      action: "user.create",
      target: { type: "user", id },
      before: null,
      after: { username, name: row.name, role: input.role },
    });
    return toSummary(row, null);
  });
}

function toSummary(row: typeof users.$inferSelect, lastSignInAt: Date | null): UserSummary {
  return {
    id: row.id,
    username: row.username ?? row.email,
    name: row.name,
    role: row.role as Role,
    disabled: row.banned === true,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: lastSignInAt?.toISOString() ?? null,
  };
}

export async function countUsers(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function listUsers(db: Database): Promise<UserSummary[]> {
  const rows = await db
    .select({ user: users, lastSignInAt: max(sessions.createdAt) })
    .from(users)
    .leftJoin(sessions, eq(sessions.userId, users.id))
    .groupBy(users.id)
    .orderBy(asc(users.username));
  return rows.map((r) => toSummary(r.user, r.lastSignInAt));
}

export async function findUserByUsername(db: Database, username: string): Promise<UserSummary | undefined> {
  const [row] = await db.select().from(users).where(eq(users.username, username.toLowerCase()));
  return row ? toSummary(row, null) : undefined;
}

export async function findUserById(db: Database, id: string): Promise<UserSummary | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ? toSummary(row, null) : undefined;
}

/**
 * Changes a user's role, enabled state or password. Disabling or a new password ends every session of the user;
 * a role change needs no such step because every request reads the role from the database. The last enabled admin
 * can be neither demoted nor disabled.
 */
export async function updateUser(
  db: Database,
  id: string,
  change: { role?: Role | undefined; disabled?: boolean | undefined; password?: string | undefined },
  actor: AuditActor,
): Promise<UserSummary | undefined> {
  const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!before) return undefined;
    const losesAdmin = before.role === "admin" && before.banned !== true && ((change.role !== undefined && change.role !== "admin") || change.disabled === true);
    if (losesAdmin) {
      // Lock every admin row, so two admins demoting each other at once cannot both succeed.
      await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).for("update");
      const [others] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, "admin"), ne(users.id, id), or(eq(users.banned, false), isNull(users.banned))));
      if ((others?.n ?? 0) === 0) throw new UserConflictError("this is the last enabled admin: make another admin first");
    }
    const set: Partial<typeof users.$inferInsert> = {};
    if (change.role !== undefined) set.role = change.role;
    if (change.disabled !== undefined) set.banned = change.disabled;
    const [after] = Object.keys(set).length ? await tx.update(users).set(set).where(eq(users.id, id)).returning() : [before];
    if (!after) return undefined;
    if (passwordHash !== undefined) {
      const updated = await tx
        .update(accounts)
        .set({ password: passwordHash, updatedAt: new Date() })
        .where(and(eq(accounts.userId, id), eq(accounts.providerId, "credential")))
        .returning({ id: accounts.id });
      if (updated.length === 0) {
        await tx.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash, updatedAt: new Date() });
      }
    }
    if (change.disabled === true || passwordHash !== undefined) await tx.delete(sessions).where(eq(sessions.userId, id));
    const fields = (row: typeof before) => ({ role: row.role, disabled: row.banned === true });
    await recordAudit(tx, {
      actor,
      action: "user.update",
      target: { type: "user", id },
      before: { ...fields(before), ...(passwordHash ? { password: "old" } : {}) },
      after: { ...fields(after), ...(passwordHash ? { password: "new" } : {}) },
      details: { username: after.username },
    });
    return toSummary(after, null);
  });
}

/** Ends every session of a user (sign-out everywhere); returns how many there were. */
export async function endSessions(db: Database, userId: string): Promise<number> {
  return (await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id })).length;
}

/**
 * First start: when there is no user at all, creates `admin` with a random password and returns the password (to
 * be printed once; it is stored only as a hash). Undefined when users exist (or another instance won the race).
 */
export async function bootstrapAdmin(db: Database, actor: AuditActor): Promise<{ username: string; password: string } | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const password = randomBytes(18).toString("base64url");
  try {
    await createUser(db, { username: "admin", name: "Administrator", role: "admin", password }, actor);
  } catch (error) {
    if (error instanceof UserConflictError || (error as { code?: string }).code === "23505") return undefined;
    throw error;
  }
  return { username: "admin", password };
}
