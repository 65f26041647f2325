import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { createApiToken, listApiTokens } from "@/db/queries/tokens";
import { tokenCreateSchema } from "@/db/schema/api-token/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

export const GET = route("admin", async () => NextResponse.json(await listApiTokens(appDatabase().db)));

/**
 * Creates a token; the answer carries the token itself, the only time it is ever shown. A token minted with a token
 * belongs to that token's owner, so disabling the owner suspends both.
 */
export const POST = route("admin", async ({ request, principal, actor }) => {
  const input = await readJson(request, tokenCreateSchema, 4 * 1024);
  const created = await createApiToken(
    appDatabase().db,
    { name: input.name, role: input.role, expiresAt: input.expiresAt ? new Date(input.expiresAt) : null, createdBy: principal.kind === "user" ? principal.id : principal.ownerId },
    actor,
  );
  return NextResponse.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
