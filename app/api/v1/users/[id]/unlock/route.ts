import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { unlockSignIn } from "@/db/queries/sign-in-throttle";
import { findUserById } from "@/db/queries/users";
import { route } from "@/server/auth/guard";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/** Forgets a user's failed sign-ins (from every address), so the right password works again at once; audited. */
export const POST = route<{ params: Promise<{ id: string }> }>("admin", async ({ context, actor }) => {
  const { id } = await context.params;
  const db = appDatabase().db;
  const user = await findUserById(db, id);
  if (!user) throw new ApiError(404, "not_found", `no user with id ${id}`);
  const { cleared } = await unlockSignIn(db, user, actor);
  return NextResponse.json({ id: user.id, username: user.username, failuresCleared: cleared });
});
