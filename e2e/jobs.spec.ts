import { expect, test } from "@playwright/test";
import { demoA2Cluster } from "../lib/inventory/demo";
import { demoFailedJob } from "../lib/jobs/demo-job";
import { storageStateOf } from "./accounts";

test.describe("jobs", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("the demo's failed job is listed with its diagnosis", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Jobs" }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    const row = page.getByRole("row", { name: /gpt-finetune/ });
    await expect(row).toContainText("Failed");
    await expect(row).toContainText("Operator loading");
  });

  test("drop a failed job's logs, see the culprit outlined on the graph", async ({ page, baseURL }) => {
    // Building the page, uploading 32 plogs and diagnosing them: more than the default minute on a shared machine.
    test.setTimeout(180_000);
    // A job that hung in execution: rank 5 (a2-node0, device 5) stopped; every other rank timed out waiting.
    const logs = demoFailedJob(demoA2Cluster(), { phase: "execute", servers: 2, culpritRank: 5 });
    const created = await page.request.post("/api/v1/jobs", {
      headers: { origin: baseURL!, "content-type": "application/json" },
      data: { cluster: "atlas-a2-demo", name: `e2e-hang-${Date.now()}`, state: "failed", startedAt: Date.now() - 3_600_000, endedAt: Date.now() - 60_000, rankTable: logs.rankTable },
    });
    expect(created.status()).toBe(201);
    const job = (await created.json()) as { id: number };

    await page.goto(`/jobs/${job.id}`);
    await expect(page.getByTestId("placement-summary")).toContainText("16 of 16 ranks placed on 2 servers");
    await expect(page.getByTestId("job-topology").locator("[data-drawn='true']")).toBeVisible();
    await expect(page.getByText("No diagnosis yet")).toBeVisible();

    // The node directories' plogs, as dropped files (their paths in the names).
    const files = [...logs.files()].map((file) => ({ name: file.path.replaceAll("/", "__"), mimeType: "text/plain", buffer: Buffer.from(file.text) }));
    await page.getByTestId("log-drop").locator("input[type=file]").setInputFiles(files);
    await page.getByRole("button", { name: "Diagnose" }).click();

    const report = page.getByTestId("diagnosis-report");
    await expect(report).toContainText("Operator execution");
    await expect(report.getByTestId("suspect-place").first()).toContainText("rank 5");
    const marks = page.getByTestId("overlay-summary");
    await expect(marks).toHaveAttribute("data-suspects", /(^| )a2-node0\/d5( |$)/);
    await expect(marks).toContainText("timed out");
    await expect(page.getByTestId("job-topology").locator("[data-drawn='true']")).toBeVisible();

    // Stored: the job list shows the diagnosis, and the culprit's HCCL error is among the job's faults.
    await expect(page.getByTestId("job-cost")).toBeVisible();
    await expect(page.getByRole("row", { name: /hccl-error|HCCL error/i }).first()).toBeVisible();
  });
});
