import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { updateUser } from "@/db/queries/users";
import { userUpdateSchema } from "@/db/schema/user/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/** Changes a user's role, disables or enables the account, or sets a new password. */
export const PATCH = route<{ params: Promise<{ id: string }> }>("admin", async ({ request, context, actor }) => {
  const { id } = await context.params;
  const change = await readJson(request, userUpdateSchema, 4 * 1024);
  const user = await updateUser(appDatabase().db, id, change, actor);
  if (!user) throw new ApiError(404, "not_found", `no user with id ${id}`);
  return NextResponse.json(user);
});
