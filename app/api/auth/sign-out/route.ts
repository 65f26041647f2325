import { ApiError } from "@/server/http/errors";
import { route } from "@/server/auth/guard";
import { signOut } from "@/server/auth/sign-in";

export const dynamic = "force-dynamic";

/** Ends the caller's session. */
export const POST = route("read", async ({ request, principal }) => {
  if (principal.kind !== "user") throw new ApiError(400, "not_a_session", "API tokens do not sign out; revoke the token instead");
  return signOut(request, principal, false);
});
