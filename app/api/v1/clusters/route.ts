import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listClusterSummaries } from "@/db/queries/inventory";
import { route } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = route("read", async () => NextResponse.json(await listClusterSummaries(appDatabase().db)));
