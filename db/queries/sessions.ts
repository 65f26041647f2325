import { eq, sql } from "drizzle-orm";
import type { Database } from "../client";
import { sessions, users } from "../schema";

/** What a request's session lookup needs: the session's expiry and the user's identity, role and state. */
export interface SessionWithUser {
  sessionId: string;
  expiresAt: Date;
  userId: string;
  name: string;
  username: string | null;
  role: string;
  banned: boolean | null;
}

function sessionByTokenHash(db: Database) {
  return db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      name: users.name,
      username: users.username,
      role: users.role,
      banned: users.banned,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, sql.placeholder("tokenHash")))
    .limit(1)
    .prepare("session_by_token_hash");
}

/** One prepared statement per database handle (tests switch databases between files). */
const prepared = new WeakMap<Database, ReturnType<typeof sessionByTokenHash>>();

/**
 * The session whose stored token is `tokenHash` (sessions.token holds SHA-256 of the cookie's token:
 * server/auth/session-token-hash.ts) with its user, in one indexed query (a prepared statement: built once per
 * process, planned once per connection), or undefined. Expiry is the caller's to judge.
 */
export async function findSessionByTokenHash(db: Database, tokenHash: string): Promise<SessionWithUser | undefined> {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = sessionByTokenHash(db)));
  const [row] = await query.execute({ tokenHash });
  return row;
}
