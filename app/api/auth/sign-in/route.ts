import { handler } from "@/server/http/errors";
import { signIn } from "@/server/auth/sign-in";

export const dynamic = "force-dynamic";

/** Public: username and password in, session cookie out (with the back-off and the audit log). */
export const POST = handler(async (request: Request) => signIn(request));
