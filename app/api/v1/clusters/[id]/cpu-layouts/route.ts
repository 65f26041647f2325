import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listServerCpuLayouts } from "@/db/queries/cpu-layout";
import { route } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** `GET /api/v1/clusters/{id}/cpu-layouts`: the cluster's servers with their model and whether a CPU layout is stored. */
export const GET = route<Context>("read", async ({ context }) => {
  const { id } = await context.params;
  return NextResponse.json(await listServerCpuLayouts(appDatabase().db, id));
});
