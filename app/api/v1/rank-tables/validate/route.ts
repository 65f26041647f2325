import { NextResponse } from "next/server";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { validateRankTableBody } from "@/server/rank-table-worker";
import { requestLang } from "../shared";

export const dynamic = "force-dynamic";

/** Checks a rank table: the body is the file's raw text, whatever the content type; the answer is the spec's report (large bodies are checked off the request thread). */
export const POST = unproxiedRoute("read", async ({ request }) => {
  return NextResponse.json(await validateRankTableBody(request, requestLang(request)));
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const GET = methodNotAllowedRoute;
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
