import { NextResponse } from "next/server";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { validateRankTable } from "@/lib/rank-table";
import { route } from "@/server/auth/guard";
import { readText } from "@/server/http/body";
import { requestLang } from "../shared";

export const dynamic = "force-dynamic";

/** Checks a rank table: the body is the file's raw text, whatever the content type; the answer is the spec's report. */
export const POST = route("read", async ({ request }) => {
  const text = await readText(request, rankTableBodyLimit);
  return NextResponse.json(validateRankTable(text, { lang: requestLang(request) }));
});
