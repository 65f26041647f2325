import "server-only";
import { cookies } from "next/headers";
import { NextResponse } from "next/server";
import type { DatabaseHandle } from "@/db/client";
import { isLsn, primaryWalPosition, readRouter, type ReadDecision, type ReadResult } from "@/db/read-database";
import { dataAsOfHeader } from "@/lib/data-as-of";
import { isSecureRequest } from "@/server/auth/request";

/*
 * The HTTP half of the read replica (db/read-database.ts): a caller's own writes, remembered in a cookie, and the
 * headers that say where a read came from and how old its data is.
 */

/** The primary's WAL position after the caller's last write: reads from the replica wait until it has replayed it. */
export const writtenCookie = "rankscope-written";
/**
 * A replica that is minutes behind is broken, not lagging (the "data as of" hint says so meanwhile); the position is
 * compared, never trusted blindly, so a cookie outliving its write costs nothing.
 */
const writtenMaxAgeSeconds = 300;

export { dataAsOfHeader };
/** `primary` or `replica`, on every routed read when a replica is configured: for operators and the cluster test. */
export const readSourceHeader = "rankscope-read-source";

const positionOf = (value: string | undefined): string | null => (value && isLsn(value) ? value : null);

function writtenPosition(cookieHeader: string | null): string | null {
  const part = cookieHeader?.split(";").find((p) => p.trim().startsWith(`${writtenCookie}=`));
  return positionOf(part?.trim().slice(writtenCookie.length + 1));
}

/** Whether the request carries its own write's position: its reads must see that write (never a shared answer). */
export const carriesOwnWrite = (request: Request): boolean => writtenPosition(request.headers.get("cookie")) !== null;

/** Runs a heavy read for an API request on the replica or the primary (db/read-database.ts decides). */
export function readFor<T>(request: Request, work: (handle: DatabaseHandle) => Promise<T>): Promise<ReadResult<T>> {
  return readRouter().run(writtenPosition(request.headers.get("cookie")), work);
}

/** `readFor` for a page's first data (server components), from the request's cookies. */
export async function readForPage<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<ReadResult<T>> {
  return readRouter().run(positionOf((await cookies()).get(writtenCookie)?.value), work);
}

/** The headers of a routed read: none without a replica. */
export function readHeaders(read: ReadDecision): Record<string, string> {
  if (read.reason === "no-replica") return {};
  return { [readSourceHeader]: read.source, ...(read.asOf ? { [dataAsOfHeader]: read.asOf.toISOString() } : {}) };
}

/** Adds `readHeaders` to an answer. */
export function withReadHeaders(response: Response, read: ReadDecision): Response {
  for (const [name, value] of Object.entries(readHeaders(read))) response.headers.set(name, value);
  return response;
}

/** The common case: a heavy read answered as JSON, with its read headers. */
export async function jsonRead(request: Request, work: (handle: DatabaseHandle) => Promise<unknown>): Promise<NextResponse> {
  const { value, read } = await readFor(request, work);
  return NextResponse.json(value, { headers: readHeaders(read) });
}

/**
 * After a successful write with a replica configured: the cookie with the primary's WAL position, so the caller's
 * next reads see the write (from the primary until the replica has it). A primary that cannot say leaves it out:
 * the write stands, and its answer is not turned into an error.
 */
export async function rememberWrite(request: Request, response: Response): Promise<Response> {
  if (!readRouter().configured || response.status >= 400) return response;
  const position = await primaryWalPosition().catch(() => undefined);
  if (!position) return response;
  const secure = isSecureRequest(request.headers, request.url) ? "; Secure" : "";
  response.headers.append("set-cookie", `${writtenCookie}=${position}; Path=/; Max-Age=${writtenMaxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`);
  return response;
}
