import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { createUser, listUsers } from "@/db/queries/users";
import { userCreateSchema } from "@/db/schema/user/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

export const GET = route("admin", async () => NextResponse.json(await listUsers(appDatabase().db)));

export const POST = route("admin", async ({ request, actor }) => {
  const input = await readJson(request, userCreateSchema, 4 * 1024);
  return NextResponse.json(await createUser(appDatabase().db, input, actor), { status: 201 });
});
