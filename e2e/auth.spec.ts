import { expect, test } from "@playwright/test";
import { accounts, signedOut, storageStateOf } from "./accounts";

test.describe("Signing in and out", () => {
  test.use({ storageState: signedOut });

  test("a visitor is sent to the sign-in page, signs in, and signs out again", async ({ page }) => {
    await page.goto("/topology?cluster=atlas-a2-demo");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Ftopology%3Fcluster%3Datlas-a2-demo$/);
    await page.getByLabel("Username").fill(accounts.editor.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong username or password" })).toBeVisible();

    await page.getByLabel("Password").fill(accounts.editor.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/topology\?cluster=atlas-a2-demo$/);
    const account = page.getByRole("button", { name: "Account: editor (Editor)" });
    await expect(account).toBeVisible();

    await account.click();
    await page.getByRole("menuitem").filter({ hasText: /^Sign out$/ }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  });

  test("the API refuses requests without credentials in the standard error shape", async ({ request }) => {
    const response = await request.get("/api/v1/clusters");
    expect(response.status()).toBe(401);
    expect((await response.json()).error.code).toBe("unauthenticated");
    expect((await request.get("/api/health")).status()).toBe(200);
  });
});

test.describe("A viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("sees no admin navigation or edit controls, and the server refuses the admin pages and writes", async ({ page, request }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Account: viewer (Viewer)" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Overview" })).toBeVisible();
    await expect(nav.getByText("Admin")).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "API tokens" })).toHaveCount(0);

    await page.goto("/admin/tokens");
    await expect(page.getByRole("button", { name: "Create token" })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toHaveCount(0);

    const write = await request.post("/api/v1/tokens", { data: { name: "sneaky", role: "admin" } });
    expect(write.status()).toBe(403);
    expect((await write.json()).error.code).toBe("forbidden");
  });
});

test.describe("An admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("creates an API token, sees it exactly once, and the token works as a Bearer token", async ({ page, playwright, baseURL }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "API tokens" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();
    await page.getByRole("button", { name: "Create token" }).click();
    const form = page.getByRole("dialog", { name: "Create token" });
    await form.getByLabel("Name").fill("e2e collector");
    await form.getByLabel("Role").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "Editor" }).click();
    await form.getByRole("button", { name: "Create token" }).click();

    const shown = page.getByRole("dialog", { name: "Token e2e collector created" });
    await expect(shown).toContainText("shown only this once");
    const token = (await shown.getByTestId("new-token").innerText()).trim();
    expect(token).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);

    const machine = await playwright.request.newContext({ baseURL, storageState: signedOut });
    const me = await machine.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ kind: "token", name: "e2e collector", role: "editor" });
    await machine.dispose();

    await shown.getByRole("button", { name: "I have copied it" }).click();
    await expect(shown).toBeHidden();
    const row = page.getByRole("row", { name: /e2e collector/ });
    await expect(row).toContainText(token.slice(0, 10));
    await expect(page.getByText(token)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("row", { name: /e2e collector/ })).toBeVisible();
    expect(await page.content()).not.toContain(token);
  });

  test("unlocks a user locked out by wrong passwords, and the right password works again at once", async ({ page, playwright, baseURL }) => {
    const username = `locked_${Date.now().toString(36)}`;
    const password = "locked-user-pass-1";
    const anonymous = await playwright.request.newContext({ baseURL, storageState: signedOut });
    const signIn = (secret: string) => anonymous.post("/api/auth/sign-in", { headers: { origin: baseURL! }, data: { username, password: secret } });
    try {
      const created = await page.request.post("/api/v1/users", { headers: { origin: baseURL! }, data: { username, role: "viewer", password } });
      expect(created.status()).toBe(201);
      // Five wrong passwords are free (typos); the sixth locks this user out from this address.
      for (let attempt = 1; attempt <= 6; attempt++) expect((await signIn("not-the-password")).status()).toBe(401);
      const refused = await signIn(password);
      expect(refused.status()).toBe(429);
      expect((await refused.json()).error.code).toBe("sign_in_locked");

      await page.goto("/admin/users");
      const row = page.getByRole("row", { name: new RegExp(username) });
      await row.getByRole("button", { name: "Unlock sign-in" }).click();
      // Forgotten: the failures counted for this user from this address and account-wide (6 each).
      await expect(page.getByText(`${username} can sign in again (12 failed sign-ins forgotten).`)).toBeVisible();
      expect((await signIn(password)).status()).toBe(200);
    } finally {
      await anonymous.dispose();
    }
  });

  test("sees the sign-ins in the audit log", async ({ page }) => {
    await page.goto("/admin/audit?action=auth.sign_in");
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(page.getByRole("row", { name: /auth\.sign_in\b/ }).first()).toBeVisible();
  });

  test("pages carry the security headers and a nonce-based CSP", async ({ request }) => {
    const response = await request.get("/");
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["x-frame-options"]).toBe("DENY");
  });
});
