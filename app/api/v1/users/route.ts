import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { createUser, listUsers, UserConflictError } from "@/db/queries/users";
import { userCreateSchema } from "@/db/schema/user/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

export const GET = route("admin", async () => NextResponse.json(await listUsers(appDatabase().db)));

export const POST = route("admin", async ({ request, actor }) => {
  const input = await readJson(request, userCreateSchema, 4 * 1024);
  try {
    return NextResponse.json(await createUser(appDatabase().db, input, actor), { status: 201 });
  } catch (error) {
    if (error instanceof UserConflictError) throw new ApiError(409, "conflict", error.message);
    throw error;
  }
});
