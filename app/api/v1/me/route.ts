import { NextResponse } from "next/server";
import { route } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** Who the credentials belong to: a user (username, role) or a token (name, role). */
export const GET = route("read", async ({ principal }) =>
  NextResponse.json(
    principal.kind === "user"
      ? { kind: "user", id: principal.id, username: principal.username, name: principal.name, role: principal.role }
      : { kind: "token", id: principal.id, name: principal.name, role: principal.role },
  ),
);
