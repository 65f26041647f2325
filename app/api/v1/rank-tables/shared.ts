import "server-only";
import { NextResponse } from "next/server";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import type { Lang } from "@/lib/rank-table";
import { ApiError } from "@/server/http/errors";

export interface IdContext {
  params: Promise<{ id: string }>;
}

export async function tableId(context: IdContext): Promise<number> {
  const { id } = await context.params;
  const value = Number(id);
  if (!/^\d{1,9}$/.test(id) || !Number.isSafeInteger(value) || value < 1) throw new ApiError(404, "not_found", `there is no rank table ${id}`);
  return value;
}

export function notFound(id: number): ApiError {
  return new ApiError(404, "not_found", `there is no rank table ${id}`);
}

export const etag = (revision: number) => `"${revision}"`;

/** The query parameters, for a route's zod schema. */
export const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

/** The revision named by If-Match: `"3"`, `W/"3"` or `3`. Missing: 428; not a revision: 400. */
export function ifMatchRevision(request: Request): number {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "") {
    throw new ApiError(428, "precondition_required", 'send If-Match with the revision the edit started from (If-Match: "3")');
  }
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw new ApiError(400, "invalid_if_match", `If-Match must name a revision such as "3", not ${header}`);
  return Number(match[1]);
}

export function detailResponse(detail: RankTableDetail, status = 200): NextResponse {
  return NextResponse.json(detail, { status, headers: { etag: etag(detail.revision) } });
}

/**
 * A save's answer: the detail, or without its text when the request asks `Prefer: return=minimal` (RFC 7240). The
 * editor that sent the table has it; a 131,072-rank "2.0" table's canonical text is 207 MiB, and answering it
 * again cost the server a serialised copy and its bytes (and the browser parsing them) for nothing (issue 21).
 */
export function savedResponse(request: Request, detail: RankTableDetail, status = 200): NextResponse {
  if (!/(?:^|[,;\s])return=minimal\b/i.test(request.headers.get("prefer") ?? "")) return detailResponse(detail, status);
  return minimalResponse(detail, status);
}

/** The detail without its text (`Prefer: return=minimal`, and always for a streamed save: PUT …/text). */
export function minimalResponse(detail: RankTableDetail, status = 200): NextResponse {
  const { text: _text, largeText: _largeText, ...minimal } = detail;
  return NextResponse.json(minimal, { status, headers: { etag: etag(detail.revision), "preference-applied": "return=minimal", vary: "Prefer" } });
}

/** The language of validation messages: ?lang=zh|en, else Accept-Language. */
export function requestLang(request: Request): Lang {
  const lang = new URL(request.url).searchParams.get("lang");
  if (lang === "zh" || lang === "zh-CN") return "zh";
  if (lang === "en") return "en";
  return /^\s*zh\b/i.test(request.headers.get("accept-language") ?? "") ? "zh" : "en";
}
