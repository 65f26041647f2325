import { NextResponse } from "next/server";
import { z } from "zod";
import { appDatabase } from "@/db/client";
import { revokeApiToken } from "@/db/queries/tokens";
import { route } from "@/server/auth/guard";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/** Revokes a token: it stops working at once; the record stays for the audit trail. */
export const DELETE = route<{ params: Promise<{ id: string }> }>("admin", async ({ context, actor }) => {
  const id = z.coerce.number().int().positive().parse((await context.params).id);
  const token = await revokeApiToken(appDatabase().db, id, actor);
  if (!token) throw new ApiError(404, "not_found", `no token with id ${id}`);
  return NextResponse.json(token);
});
