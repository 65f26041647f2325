import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";

/** "180 of 180 events" → 180. */
async function shown(page: import("@playwright/test").Page): Promise<number> {
  const text = (await page.getByTestId("fault-total").textContent()) ?? "";
  return Number(text.replace(/[^\d\sof]/g, "").trim().split(/\s+of\s+/)[0]!.replace(/\s/g, ""));
}

test.describe("Fault timeline", () => {
  test("shows the simulator's day on swimlanes, and filtering narrows it", async ({ page }, testInfo) => {
    // The timeline comes as the gzip file the server made once for every viewer, decoded by the page (lib/gzip-answer.ts).
    const timelineAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/v1/fault-events" && response.request().method() === "GET");
    await page.goto("/faults?cluster=atlas-a3-demo");
    await expect(page.getByRole("heading", { level: 1, name: "Faults" })).toBeVisible();
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9]\d\d? of \d+ events/);
    expect((await timelineAnswer).headers()["content-type"]).toBe("application/gzip");
    const all = await shown(page);
    expect(all).toBeGreaterThan(150);
    await expect(page.getByTestId("fault-timeline").locator("canvas").first()).toBeVisible();
    // The simulated day: a link still down at the end, the EI0006 cascade and the switch failure on rail 7.
    const table = page.getByTestId("fault-events-table");
    await expect(table).toBeVisible();
    await testInfo.attach("timeline", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

    // Filter by kind: HCCL errors only.
    await page.goto("/faults?cluster=atlas-a3-demo&kind=hccl-error");
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9]\d* of \d+ events/);
    const hccl = await shown(page);
    expect(hccl).toBeGreaterThan(20);
    expect(hccl).toBeLessThan(all);
    await expect(table.getByRole("row").nth(1)).toContainText("HCCL error");

    // Filter by target from the filter bar: the URL keeps it, and the count narrows again.
    await page.getByTestId("filter-target").getByRole("searchbox").fill("sp0-node30");
    await page.getByTestId("filter-target").getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(/target=sp0-node30/);
    await expect.poll(() => shown(page)).toBeLessThan(hccl);

    // Open events only: the link that is still down.
    await page.goto("/faults?cluster=atlas-a3-demo&state=open");
    await expect(page.getByTestId("fault-total")).toHaveText(/^[1-9]\d* of [1-9]\d* events$/);
    await expect(table).toContainText("RoCE link down");
    await expect(table).toContainText(/open for/);

    // Export CSV: the events shown, in the import's columns, with a BOM so spreadsheets read it as UTF-8.
    const open = await shown(page);
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^faults-atlas-a3-demo-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.startsWith("\ufeffid,began_at,ended_at,")).toBe(true);
    expect(csv.trimEnd().split(/\r?\n/)).toHaveLength(open + 1);
  });

  test("opens a super pod into servers from its lane and keeps it in the URL", async ({ page }) => {
    await page.goto("/faults?cluster=atlas-a3-demo&open=pod%3A1");
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9]\d* of \d+ events/);
    await page.goto("/faults?cluster=atlas-a3-demo&tab=statistics");
    await expect(page.getByTestId("fault-statistics")).toContainText("Mean time to recovery");
    await expect(page.getByTestId("fault-statistics")).toContainText("Availability per super pod");
    // What the window's faults cost, in die-hours under a level that stops work.
    await expect(page.getByTestId("fault-statistics")).toContainText(/Die-hours lost \(red levels\)\s*[\d.,]+\s*die-h/);
  });
});

test.describe("Fault inbox backlog", () => {
  test("the timeline says how many posted events are not judged yet, and nothing once the inbox is empty", async ({ page }) => {
    // The judge empties the inbox within a second of a post, too soon to see: the real answer is asked (its shape is
    // checked here) and handed on with a backlog in it, then as it is (empty).
    let backlog = 12_000;
    await page.route("**/api/v1/fault-events/inbox", async (route) => {
      const response = await route.fetch();
      const real = (await response.json()) as { events: number; batches: number; oldestAgeMs: number | null; maxEvents: number };
      expect(real).toEqual(expect.objectContaining({ events: expect.any(Number), batches: expect.any(Number), maxEvents: expect.any(Number) }));
      await route.fulfill({ response, json: backlog ? { ...real, batches: 12, events: backlog, oldestAgeMs: 9_400 } : real });
    });
    await page.goto("/faults?cluster=atlas-a3-demo");
    await expect(page.getByTestId("fault-total")).toHaveText(/[1-9]\d* of \d+ events/);
    await expect(page.getByTestId("inbox-backlog")).toHaveText("12,000 events received and not judged yet (the oldest 9 s ago): the timeline does not show them yet");
    backlog = 0;
    await expect(page.getByTestId("inbox-backlog")).toHaveCount(0, { timeout: 15_000 });
  });
});

test.describe("Live health on the topology", () => {
  test.use({ storageState: "e2e/.auth/editor.json" });

  test("a fault posted through the API turns the die red on an open topology page, without reloading", async ({ page, baseURL }) => {
    await page.goto("/topology?cluster=atlas-a3-demo&level=server&id=sp0-node02&sel=die%3Asp0-node02%2Fd5");
    const details = page.getByRole("region", { name: "Details" });
    await expect(details.getByRole("row", { name: /Health\s*Healthy/ })).toBeVisible();
    const response = await page.request.post("/api/v1/fault-events", {
      headers: { origin: baseURL! },
      data: [{ id: `e2e-${Date.now()}`, cluster: "atlas-a3-demo", kind: "npu-chip-fault", code: "80E18402", level: "SeparateNPU", target: { server: "sp0-node02", die: 5 }, beganAt: new Date().toISOString() }],
    });
    expect(response.status(), await response.text()).toBe(200);
    // Server-sent events (LISTEN/NOTIFY) refresh the view and the details: no reload, no polling.
    await expect(details.getByRole("row", { name: /Health\s*Faulty/ })).toBeVisible({ timeout: 3_000 });
  });
});
