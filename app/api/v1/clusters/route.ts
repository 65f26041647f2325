import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listClusterSummaries } from "@/db/queries/inventory";
import { handler } from "@/server/http/errors";

export const dynamic = "force-dynamic";

export const GET = handler(async () => NextResponse.json(await listClusterSummaries(appDatabase().db)));
