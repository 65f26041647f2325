/**
 * A large "2.0" table in the editor (issue 21 item 3): a 16,384-rank rank_list (26 MiB of canonical text, 256 racks
 * of 64 NPUs) opens from a file, one edited field raises its finding on the cell and in the report through the
 * validation worker; and (fixme: not yet true) after the table is shown no main-thread task takes over 50 ms
 * (PerformanceObserver "longtask", recorded from before the page loads). 16,384 ranks keeps a test near a minute on
 * the shared 2-core machine; the bench (`npm run bench -- editor`) gives the figures at 131,072 and 524,288 ranks.
 */
import { writeFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { generateA5Table } from "../lib/rank-table/generate-a5";
import { writeRankTable } from "../lib/rank-table/write";
import { storageStateOf } from "./accounts";

const RACKS = 256;
const report = (page: Page) => page.getByRole("status", { name: "Validation report" });
const deviceId = (page: Page, value: string) => page.getByRole("textbox", { name: `device_id of die ${value} on superpod0-rack0`, exact: true });

/** Opens the generated table from a file, recording the page's long tasks from before it loads; resolves when it is shown and valid. */
async function openLargeTable(page: Page, file: string): Promise<number> {
  await writeFile(file, writeRankTable(generateA5Table({ racks: RACKS, npusPerRack: 64 })));
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks!.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto("/rank-tables/new");
  await page.locator('input[type="file"]').first().setInputFiles(file);
  await expect(report(page)).toContainText("Valid: HCCL accepts this table", { timeout: 120_000 });
  await expect(deviceId(page, "1")).toHaveValue("1");
  return page.evaluate(() => performance.now());
}

/** device_id is [0, 64] in the A5 reference: 70 is RT110, on the cell and in the report; 1 again clears it. */
async function breakAndFix(page: Page): Promise<void> {
  await deviceId(page, "1").fill("70");
  await deviceId(page, "1").press("Enter");
  await expect(report(page)).toContainText("1 error: HCCL would reject this table");
  await expect(deviceId(page, "70")).toHaveAttribute("aria-invalid", "true");
  await deviceId(page, "70").fill("1");
  await deviceId(page, "70").press("Enter");
  await expect(report(page)).toContainText("Valid: HCCL accepts this table");
  await expect(deviceId(page, "1")).not.toHaveAttribute("aria-invalid", "true");
}

declare global {
  interface Window {
    __longTasks?: { start: number; duration: number }[];
  }
}

test.describe("Rank table workspace, a 16,384-rank 2.0 table (editor)", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("opens from a file, and an edit raises RT110 on the cell and in the report through the worker, and clears it", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await openLargeTable(page, testInfo.outputPath(`ranks-${RACKS * 64}.json`));
    await breakAndFix(page);
  });

  // Known failing (2026-11-26, load average 15–20 on the 2-core machine): after the report is shown, the open's tail
  // and the two edits gave five tasks of 56–100 ms (at 7.0, 7.4, 7.7, 8.2 and 8.3 s). To be enabled once the main
  // thread's share of an edit and of the open is cut further (issue 21 item 3).
  test.fixme("no main-thread task over 50 ms after the load, through two edits", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const loaded = await openLargeTable(page, testInfo.outputPath(`ranks-${RACKS * 64}.json`));
    await breakAndFix(page);
    const longTasks = await page.evaluate((since) => window.__longTasks!.filter((task) => task.start >= since && task.duration > 50), loaded);
    expect(longTasks).toEqual([]);
  });
});
