import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getServerCpuLayout, saveServerCpuLayout } from "@/db/queries/cpu-layout";
import { cpuLayoutBodyLimit, cpuLayoutInputSchema } from "@/db/schema/server-cpu-layout/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; serverId: string }> };

/** `GET …/servers/{serverId}/cpu-layout`: the stored layout and the texts it came from (`layout: null` when none). */
export const GET = route<Context>("read", async ({ context }) => {
  const { id, serverId } = await context.params;
  return NextResponse.json(await getServerCpuLayout(appDatabase().db, id, serverId));
});

/**
 * `PUT …/servers/{serverId}/cpu-layout` with `{"lscpu", "topo"?, "scope"?: "server"|"model"}`: stores the layout read
 * from the texts for the server, or for every server of its model; answers what was not understood in the texts.
 */
export const PUT = route<Context>("write", async ({ request, context, actor }) => {
  const { id, serverId } = await context.params;
  const input = await readJson(request, cpuLayoutInputSchema, cpuLayoutBodyLimit);
  const { reading, serverIds } = await saveServerCpuLayout(appDatabase().db, id, serverId, input, actor);
  return NextResponse.json({ ...reading, serverIds });
});
