import "server-only";
import type { drizzleAdapter } from "better-auth/adapters/drizzle";
import { hashToken } from "@/lib/auth/tokens";

type AdapterInstance = ReturnType<typeof drizzleAdapter>;
type Adapter = ReturnType<AdapterInstance>;
interface Where {
  field: string;
  value: unknown;
  operator?: string;
}
type Call = { model?: string; where?: Where[]; data?: Record<string, unknown>; update?: Record<string, unknown> };

/**
 * Session tokens hashed at rest: better-auth (1.7) keeps `sessions.token` as the bearer value itself, so a copy of
 * the database (a backup, a replica, a dump) would hand out every live session. This wraps its adapter so the
 * column holds SHA-256 of the token (hex, as API tokens: lib/auth/tokens.ts) and every lookup, update and delete
 * by token hashes the value it is given; `create` answers with the raw token (the cookie better-auth signs), and a
 * row found by token is answered with the token it was looked up by. A row found otherwise (by user) carries the
 * hash, which matches nothing when handed back: it fails closed. There is no pass-through for values that already
 * look hashed: with the database leaked, the cookie secret (app_settings) may be too, and a signed cookie holding a
 * stored hash must not work. Migration 0012 hashed the tokens of existing sessions, so they kept working.
 * better-auth has no option for this (checked 1.7.25: internal-adapter.mjs looks sessions up by `token`); the
 * same approach: https://github.com/KeeperHub/keeperhub/pull/1047.
 */
export function hashSessionTokens(instance: AdapterInstance): AdapterInstance {
  return (options) => wrap(instance(options));
}

const isSession = (call: unknown): call is Call => typeof call === "object" && call !== null && (call as Call).model === "session";

function hashValue(value: unknown): unknown {
  if (typeof value === "string") return hashToken(value);
  if (Array.isArray(value)) return value.map(hashValue);
  return value;
}

/** The hashed call, and hash → raw token for the tokens it names, to answer with the raw ones. */
function hashCall(call: Call): { call: Call; raw: Map<string, string> } {
  const raw = new Map<string, string>();
  const remember = (value: unknown) => {
    for (const token of Array.isArray(value) ? value : [value]) if (typeof token === "string") raw.set(hashToken(token), token);
  };
  const where = call.where?.map((clause) => {
    if (clause.field !== "token") return clause;
    remember(clause.value);
    return { ...clause, value: hashValue(clause.value) };
  });
  const withToken = (record: Record<string, unknown> | undefined) => {
    if (!record || !("token" in record)) return record;
    remember(record.token);
    return { ...record, token: hashValue(record.token) };
  };
  const hashed: Call = { ...call };
  if (where) hashed.where = where;
  if (call.data) hashed.data = withToken(call.data);
  if (call.update) hashed.update = withToken(call.update);
  return { call: hashed, raw };
}

function restore(result: unknown, raw: Map<string, string>): unknown {
  if (Array.isArray(result)) return result.map((row) => restore(row, raw));
  if (typeof result !== "object" || result === null || !("token" in result)) return result;
  const token = raw.get(String((result as { token: unknown }).token));
  return token === undefined ? result : { ...result, token };
}

function wrap<A extends Omit<Adapter, "transaction"> & { transaction?: Adapter["transaction"] }>(adapter: A): A {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== "function") return member;
      if (property === "transaction") {
        return (callback: (trx: unknown) => Promise<unknown>) =>
          (member as (cb: (trx: unknown) => Promise<unknown>) => Promise<unknown>).call(target, (trx) => callback(wrap(trx as A)));
      }
      const method = member as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const [call, ...rest] = args;
        if (!isSession(call)) return method.apply(target, args);
        const hashed = hashCall(call);
        return Promise.resolve(method.apply(target, [hashed.call, ...rest])).then((result) => restore(result, hashed.raw));
      };
    },
  });
}
