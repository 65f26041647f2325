import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { isDatabaseUnavailable } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and for people. */
export async function GET() {
  try {
    await appDatabase().pool.query("select 1");
    return NextResponse.json({ status: "ok", database: "ok" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return NextResponse.json(
      {
        status: "error",
        database: isDatabaseUnavailable(error) ? "unreachable" : "error",
        error: { code: "database_unavailable", message: `the database is unavailable: ${reason}` },
      },
      { status: 503, headers: { "cache-control": "no-store" } },
    );
  }
}
