import { expect, test, type Page } from "@playwright/test";
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

  test("the demo's failed A2 job draws its two servers, and the other two dimmed, on the cluster view", async ({ page }, testInfo) => {
    await page.goto("/jobs");
    await page.getByRole("row", { name: /gpt-finetune/ }).getByRole("link", { name: /gpt-finetune/ }).click();
    const graph = page.getByTestId("job-topology");
    await expect(graph.locator("[data-drawn='true']")).toBeVisible();
    const shot = await graph.screenshot();
    await testInfo.attach("demo job topology", { body: shot, contentType: "image/png" });
    // The A2 demo has four servers in a 2 × 2 grid and no super pods: a box in each quarter of the canvas.
    const painted = await quarterInk(page);
    expect(painted.every((share) => share > 0.05), JSON.stringify(painted)).toBe(true);
  });

  test("a topology view that never answers holds the job's sections back a few seconds only", async ({ page }) => {
    // The job's view on the cluster, never answered (the route is neither fulfilled nor continued).
    await page.route(/\/api\/v1\/clusters\/[^/]+\/topology\?/, () => {});
    await page.goto("/jobs");
    await page.getByRole("row", { name: /gpt-finetune/ }).getByRole("link", { name: /gpt-finetune/ }).click();
    await expect(page.getByTestId("job-cost")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("job-topology").locator("[data-drawn='true']")).toHaveCount(0);
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

  test("drop 40 MB of logs (past the proxy's 32 MiB): they stream to the diagnosis", async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    const created = await page.request.post("/api/v1/jobs", {
      headers: { origin: baseURL!, "content-type": "application/json" },
      data: { cluster: "atlas-a2-demo", name: `e2e-big-${Date.now()}`, state: "failed" },
    });
    const job = (await created.json()) as { id: number };
    const chatter = "[INFO] HCCL(77,python):2025-07-23-03:47:57.070.463 [op_base.cc:1] [77][Op] entry AllReduce count[4096]\n";
    const failure = "[ERROR] HCCL(77,python):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [77][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail.\n";
    const buffer = Buffer.from(chatter.repeat(Math.ceil((40 * 1024 * 1024) / chatter.length)) + failure);
    await page.goto(`/jobs/${job.id}`);
    await page.getByTestId("log-drop").locator("input[type=file]").setInputFiles([{ name: "worker-0.log", mimeType: "text/plain", buffer }]);
    await page.getByRole("button", { name: "Diagnose" }).click();
    const report = page.getByTestId("diagnosis-report");
    await expect(report).toContainText("Port in use", { timeout: 120_000 });
    await expect(report.getByTestId("suspect-place").first()).toContainText("port 16666");
    // Requests without a body still pass the proxy: a method the route lacks gets 405 in the error shape.
    const put = await page.request.put(`/api/v1/jobs/${job.id}/diagnoses`, { headers: { origin: baseURL! } });
    expect(put.status()).toBe(405);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
  });
});

/** The share of each quarter of the job's topology canvas that is painted (not the page's background). */
async function quarterInk(page: Page): Promise<number[]> {
  return page.getByTestId("job-topology").locator("canvas").first().evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext("2d")!;
    const { width, height } = canvas;
    const pixels = context.getImageData(0, 0, width, height).data;
    const shares: number[] = [];
    for (const [x0, y0] of [[0, 0], [width / 2, 0], [0, height / 2], [width / 2, height / 2]] as const) {
      let inked = 0;
      let all = 0;
      for (let y = Math.floor(y0); y < y0 + height / 2; y += 4) {
        for (let x = Math.floor(x0); x < x0 + width / 2; x += 4) {
          all++;
          if (pixels[(y * width + x) * 4 + 3]! > 8) inked++;
        }
      }
      shares.push(inked / all);
    }
    return shares;
  });
}
