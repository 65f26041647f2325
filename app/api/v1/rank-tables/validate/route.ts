import { NextResponse } from "next/server";
import { unproxiedRoute } from "@/server/auth/guard";
import { validateRankTableBody } from "@/server/rank-table-worker";
import { requestLang } from "../shared";

export const dynamic = "force-dynamic";

/** Checks a rank table: the body is the file's raw text, whatever the content type; the answer is the spec's report (large bodies are checked off the request thread). */
export const POST = unproxiedRoute("read", async ({ request }) => {
  return NextResponse.json(await validateRankTableBody(request, requestLang(request)));
});
