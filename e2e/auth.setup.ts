import { expect, test as setup } from "@playwright/test";
import { accounts, storageStateOf, type AccountRole } from "./accounts";

for (const role of Object.keys(accounts) as AccountRole[]) {
  setup(`sign in as the demo ${role}`, async ({ page }) => {
    const { username, password } = accounts[role];
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
