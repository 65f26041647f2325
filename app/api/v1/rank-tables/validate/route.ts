import { NextResponse } from "next/server";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { route } from "@/server/auth/guard";
import { readBytes } from "@/server/http/body";
import { validateRankTableBody } from "@/server/rank-table-worker";
import { requestLang } from "../shared";

export const dynamic = "force-dynamic";

/** Checks a rank table: the body is the file's raw text, whatever the content type; the answer is the spec's report (large bodies are checked off the request thread). */
export const POST = route("read", async ({ request }) => {
  const bytes = await readBytes(request, rankTableBodyLimit);
  return NextResponse.json(await validateRankTableBody(bytes, requestLang(request)));
});
