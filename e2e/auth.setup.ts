import { expect, test as setup } from "@playwright/test";
import { accounts, storageStateOf, type AccountRole } from "./accounts";

// Each demo account signed in once through the API (the sign-in form itself is e2e/auth.spec.ts's), its session
// cookie kept for the specs that run as it.
for (const role of Object.keys(accounts) as AccountRole[]) {
  setup(`sign in as the demo ${role}`, async ({ request, baseURL }) => {
    const { username, password } = accounts[role];
    const signedIn = await request.post("/api/auth/sign-in", { headers: { origin: baseURL! }, data: { username, password } });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    await request.storageState({ path: storageStateOf(role) });
  });
}
