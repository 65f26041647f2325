import { expect, test } from "@playwright/test";

const navigation = (page: import("@playwright/test").Page) => page.getByRole("navigation").first();

test.describe("Errors inside the console", () => {
  test("a job that does not exist is a 'page not found' inside the console, with the way back", async ({ page }) => {
    await page.goto("/jobs/999999999");
    await expect(page.getByText("Page not found")).toBeVisible();
    await expect(page.getByText("There is no page at this address.")).toBeVisible();
    // The console's shell stays: its navigation is there.
    await expect(navigation(page)).toBeVisible();
    await page.getByRole("button", { name: "Back to the overview" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("code that fails to download (an older build's chunk after an upgrade) shows the error and a reload mends it", async ({ page }) => {
    const path = "/topology?cluster=atlas-a3-demo";
    // Every chunk the page names in its HTML loads; those it imports later (the graph's, the die table's) fail.
    const html = await (await page.request.get(path)).text();
    const named = new Set([...html.matchAll(/static\/chunks\/([\w.-]+\.js)/g)].map((match) => match[1]));
    expect(named.size).toBeGreaterThan(0);
    let refused = 0;
    await page.route("**/_next/static/chunks/*.js", (route) => {
      const name = new URL(route.request().url()).pathname.split("/").pop()!;
      if (named.has(name)) return route.continue();
      refused++;
      return route.abort("failed");
    });
    await page.goto(path);
    await expect(page.getByText("Something went wrong")).toBeVisible({ timeout: 20_000 });
    expect(refused).toBeGreaterThan(0);
    await expect(navigation(page)).toBeVisible();

    await page.unroute("**/_next/static/chunks/*.js");
    await page.getByRole("button", { name: "Reload now" }).click();
    await expect(page.getByRole("region", { name: "Topology graph" }).locator('[data-drawn="true"]')).toBeVisible({ timeout: 20_000 });
  });
});
