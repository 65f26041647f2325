import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./accounts";

/** A printed PDF: the file's magic number and more than a blank page's bytes. */
async function printed(page: Page): Promise<Buffer> {
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.length).toBeGreaterThan(30_000);
  return pdf;
}

/**
 * Clicks the first bar or point found down the middle of a chart: ECharts turns the cursor into a pointer over an
 * element that answers clicks (zrender sets it on the canvas's parent).
 */
async function clickChart(page: Page, testId: string): Promise<void> {
  const canvas = page.getByTestId(testId).locator("canvas").first();
  const box = (await canvas.boundingBox())!;
  for (const fx of [0.5, 0.65, 0.8, 0.35, 0.9]) {
    for (let fy = 0.15; fy < 0.95; fy += 0.03) {
      const [x, y] = [box.x + box.width * fx, box.y + box.height * fy];
      await page.mouse.move(x, y);
      if ((await canvas.evaluate((c) => (c.parentElement as HTMLElement).style.cursor)) === "pointer") {
        await page.mouse.click(x, y);
        return;
      }
    }
  }
  throw new Error(`no element of ${testId} answers a click`);
}

test.describe("Fault report", () => {
  // Each report reads two periods; on a loaded machine a page takes seconds.
  test.setTimeout(180_000);
  test("opens with a complete URL, reads in English and Chinese and prints to PDF in both", async ({ page, browser }, testInfo) => {
    await page.goto("/faults/report?cluster=atlas-a3-demo");
    // The page completes the URL, so the address reproduces the report.
    await expect(page).toHaveURL(/\/faults\/report\?cluster=atlas-a3-demo&from=\d+&to=\d+/);
    await expect(page.getByRole("heading", { level: 1, name: "Fault report" })).toBeVisible();
    await expect(page.getByTestId("report-summary")).toContainText(/Availability \d+\.\d\d %.*fault events/);
    await expect(page.getByTestId("report-key-figures")).toContainText("Die-hours lost");
    await expect(page.getByTestId("chart-events").locator("canvas")).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("table-servers").getByRole("row").nth(1)).toContainText("new this period");
    const csv = await page.request.get((await page.getByRole("link", { name: "CSV" }).getAttribute("href"))!);
    expect(csv.ok()).toBe(true);
    expect((await csv.text()).split("\r\n")[0]).toBe("section,name,bucket,value,previous,change");
    await testInfo.attach("report-en.pdf", { body: await printed(page), contentType: "application/pdf" });
    await testInfo.attach("report-en", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

    // Chosen sections only: the URL keeps them.
    await page.goto(`${page.url()}&sections=summary,deltas,jobs`);
    await expect(page.getByTestId("report-summary")).toBeVisible();
    await expect(page.getByTestId("chart-events")).toHaveCount(0);

    const context = await browser.newContext({ locale: "zh-CN", storageState: storageStateOf("viewer") });
    const zh = await context.newPage();
    await zh.goto("/faults/report?cluster=atlas-a3-demo");
    await expect(zh.getByRole("heading", { level: 1, name: "故障报告" })).toBeVisible();
    await expect(zh.getByTestId("report-summary")).toContainText(/可用率 \d+\.\d\d %.*故障事件/);
    // The charts draw once the page has hydrated (seconds on a loaded machine); the text above is server-rendered.
    await expect(zh.getByTestId("chart-availability").locator("canvas")).toBeVisible({ timeout: 90_000 });
    await testInfo.attach("report-zh.pdf", { body: await printed(zh), contentType: "application/pdf" });
    await context.close();
  });

  test("an offender and a chart element open the timeline filtered to them", async ({ page }) => {
    await page.goto("/faults/report?cluster=atlas-a3-demo");
    const link = page.getByTestId("table-servers").getByRole("link").first();
    const server = (await link.textContent())!;
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/faults\\?cluster=atlas-a3-demo&from=\\d+&to=\\d+.*target=${server}`), { timeout: 60_000 });
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9][\d,]* of [\d,]+ events/);

    await page.goto("/faults?cluster=atlas-a3-demo&tab=trends");
    await expect(page.getByTestId("fault-trends")).toBeVisible();
    await expect(page.getByTestId("chart-events").locator("canvas")).toBeVisible({ timeout: 90_000 });
    await clickChart(page, "chart-events");
    await expect(page).toHaveURL(/\/faults\?cluster=atlas-a3-demo&from=\d+&to=\d+&level=\w+/, { timeout: 60_000 });
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9][\d,]* of [\d,]+ events/);
  });
});
