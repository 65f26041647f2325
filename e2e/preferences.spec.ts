import { expect, test } from "@playwright/test";
import { storageStateOf } from "./accounts";

test.describe("Language and theme", () => {
  test("switching to Chinese translates the page and is remembered", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await page.getByText("中文", { exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "概览" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "拓扑" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    const a3 = page.getByRole("region", { name: "Atlas 900 A3 SuperPoD (demo)" });
    await expect(a3.getByRole("listitem").filter({ hasText: "服务器" }).first()).toContainText("96");

    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "概览" })).toBeVisible();
    await page.getByText("English", { exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  });

  test("a Chinese browser gets Chinese by default", async ({ browser }) => {
    const context = await browser.newContext({ locale: "zh-CN", storageState: storageStateOf("viewer") });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "概览" })).toBeVisible();
    await context.close();
  });

  test("the dark theme applies at once and survives a reload", async ({ page }) => {
    await page.goto("/");
    const html = page.locator("html");
    await expect(html).toHaveAttribute("data-theme", "light");
    const lightBackground = await page.locator("header").evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.getByText("Dark", { exact: true }).click();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect
      .poll(() => page.locator("header").evaluate((el) => getComputedStyle(el).backgroundColor))
      .not.toBe(lightBackground);
    await page.reload();
    await expect(html).toHaveAttribute("data-theme", "dark");
  });
});
