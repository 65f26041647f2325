import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./accounts";

test.describe("Overview", () => {
  test("shows each demo cluster with its counts per level and per server model", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    const a3 = page.getByRole("region", { name: "Atlas 900 A3 SuperPoD (demo)" });
    await expect(a3.getByText("Super pod mode (rank table 1.2)")).toBeVisible();
    for (const [label, value] of [
      ["Super pods", "2"],
      ["Servers", "96"],
      ["NPUs", "768"],
      ["Dies (devices)", "1,536"],
    ] as const) {
      await expect(a3.getByRole("listitem").filter({ hasText: label }).first()).toContainText(value);
    }
    await expect(a3.getByRole("row", { name: /Atlas 800T A3\s*96/ })).toBeVisible();

    const a2 = page.getByRole("region", { name: "Atlas 800T A2 training (demo)" });
    await expect(a2.getByRole("listitem").filter({ hasText: "Dies (devices)" })).toContainText("32");
    await expect(a2.getByText("AI Server mode (rank table 1.0)")).toBeVisible();

    const totals = page.getByRole("region", { name: "All clusters" });
    // The two demo clusters and the two of the scale test (e2e/topology-scale.spec.ts): 1,568 + 17,168 in the
    // SuperCluster-shaped one + 8,320 in the 1,040 plain A2 servers.
    await expect(totals.getByRole("listitem").filter({ hasText: "Dies (devices)" })).toContainText("27,056");
  });

  test("the cluster switcher narrows the page to one cluster and keeps it in the URL", async ({ page }) => {
    await page.goto("/");
    const switcher = page.getByRole("combobox", { name: "Cluster" });
    await switcher.click();
    await switcher.fill("A2 training");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\?cluster=atlas-a2-demo$/);
    await expect(page.getByRole("region", { name: "Atlas 800T A2 training (demo)" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Atlas 900 A3 SuperPoD (demo)" })).toHaveCount(0);
    await page.goBack();
    await expect(page.getByRole("region", { name: "Atlas 900 A3 SuperPoD (demo)" })).toBeVisible();
  });

  test("is reachable by keyboard: the skip link moves focus to the main content", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  });
});

test.describe("The top bar's search", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("`/` focuses it; it finds a die by device IP and a rank table by name, and opens them", async ({ page, request, baseURL }) => {
    const name = `search me ${Date.now()}`;
    const created = await request.post("/api/v1/rank-tables", { data: { name, text: await readFile("lib/rank-table/fixtures/seed-super-pod.jsonc", "utf8") }, headers: { origin: baseURL! } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    await page.goto("/rank-tables");
    const search = page.getByRole("combobox", { name: "Search the console" });
    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("/");
    await expect(search).toBeFocused();
    await page.keyboard.type("192.168.50.9");
    const dropdown = page.locator(".ant-select-dropdown:visible");
    await expect(dropdown).toContainText("Atlas 900 A3 SuperPoD (demo)");
    await dropdown.getByText("sp1-node01 · die 3").click();
    await expect(page).toHaveURL(/\/topology\?cluster=atlas-a3-demo&level=server&id=sp1-node01&sel=die%3Asp1-node01%2Fd3/);
    await expect(page.getByRole("region", { name: "Details" }).getByRole("row", { name: /Device IP\s*192\.168\.50\.9/ })).toBeVisible();

    await search.fill(name.slice(0, 12));
    await expect(dropdown.locator(".ant-select-item-option").first()).toContainText(name);
    await search.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/rank-tables/${id}$`));
    // Typing `/` into a field types it; only outside fields is it the shortcut.
    await page.getByRole("textbox", { name: "Name", exact: true }).press("End");
    await page.keyboard.type("/x");
    await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(`${name}/x`);
    await expect(search).not.toBeFocused();
  });
});
