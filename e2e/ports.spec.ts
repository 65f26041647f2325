import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./accounts";

// The demo seed's two A2 jobs on a2-node2 and a2-node3, both on HCCL's default ports (db/queries/jobs-seed.ts).
const portsUrl = "/ports?cluster=atlas-a2-demo";
const map = (page: Page, name = "Host × port-range map") => page.getByRole("region", { name });
const hostRow = (page: Page, host: string, mapName?: string) =>
  map(page, mapName).getByRole("row").filter({ has: page.getByRole("button", { name: new RegExp(`${host}$`) }) });

test.describe("ports in Chinese and the dark theme", () => {
  test("labels the map in Chinese and keeps the conflict red on the dark background", async ({ page }) => {
    await page.goto(portsUrl);
    await page.getByText("Dark", { exact: true }).click();
    await page.getByText("中文", { exact: true }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByRole("heading", { level: 1, name: "端口" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "主机 × 端口图" })).toBeVisible();
    const bert = hostRow(page, "a2-node2", "主机 × 端口范围图").getByLabel(/^training\/bert-pretrain: HCCL_IF_BASE_PORT 60000-60031 \(主机\) — 冲突$/);
    await expect(bert).toHaveAttribute("data-conflict", "true");
    const [r, g] = await bert.evaluate((el) => getComputedStyle(el).color.match(/\d+/g)!.map(Number));
    expect(r).toBeGreaterThan(g! + 60);
    await page.screenshot({ path: test.info().outputPath("ports-zh-dark.png"), fullPage: true });
    await page.getByRole("tab", { name: /检查结果/ }).click();
    await expect(page.getByRole("region", { name: "检查结果" }).getByRole("row", { name: /PT001.*60000-60031/ })).toContainText("作业“training/resnet-train”");
    await page.getByText("English", { exact: true }).click();
    await page.getByText("Light", { exact: true }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  });
});

test.describe("ports as an editor", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("shows the conflict in red, plans, previews every change, applies, and the conflict is gone", async ({ page }) => {
    test.slow(); // a long walk through four tabs and the job page: over a minute on a loaded machine
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Ports" }).click();
    await expect(page).toHaveURL(/\/ports$/);
    await page.goto(portsUrl);
    await expect(page.getByRole("heading", { level: 1, name: "Ports" })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("ports-map.png"), fullPage: true });

    // The map: both jobs hold HCCL's default block on a2-node2, in red with a cross.
    const row = hostRow(page, "a2-node2");
    const bert = row.getByLabel(/^training\/bert-pretrain: HCCL_IF_BASE_PORT 60000-60031 \(host\) — Conflict$/);
    await expect(bert).toHaveAttribute("data-conflict", "true");
    await expect(row.getByLabel(/^training\/resnet-train: HCCL_IF_BASE_PORT 60000-60031 \(host\) — Conflict$/)).toBeVisible();
    const [r, g] = await bert.evaluate((el) => getComputedStyle(el).color.match(/\d+/g)!.map(Number));
    expect(r).toBeGreaterThan(g! + 60);

    // The URL keeps the view: a host opens its drawer, Esc closes it.
    await hostRow(page, "a2-node3").getByRole("button", { name: /a2-node3$/ }).click();
    await expect(page).toHaveURL(/host=a2-node3/);
    await expect(page.getByRole("dialog").getByRole("table")).toContainText("HCCL_IF_BASE_PORT (default)");
    await page.keyboard.press("Escape");
    await expect(page).not.toHaveURL(/host=/);

    // The findings name both parties.
    await page.getByRole("tab", { name: /Findings/ }).click();
    await expect(page).toHaveURL(/tab=findings/);
    const clash = page.getByRole("region", { name: "Findings" }).getByRole("row", { name: /PT001.*60000-60031/ });
    await expect(clash).toContainText('job "training/bert-pretrain"');
    await expect(clash).toContainText('job "training/resnet-train"');

    // Plan: a dry run previewed per job, then applied.
    await page.getByRole("tab", { name: "Plan" }).click();
    await page.getByRole("button", { name: /Plan$/ }).click();
    const preview = page.getByRole("region", { name: "Plan preview" });
    await expect(preview).toContainText("2 changes to 1 job");
    await expect(preview.getByRole("table", { name: "Changes to training/resnet-train" })).toContainText("HCCL_IF_BASE_PORT");
    await expect(preview.getByLabel("Environment lines of training/resnet-train")).toContainText("export HCCL_IF_BASE_PORT=61000");
    await expect(preview.getByLabel("Diff")).toContainText("+ HCCL_IF_BASE_PORT=61000");
    await page.screenshot({ path: test.info().outputPath("ports-plan-preview.png"), fullPage: true });
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("tooltip").getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Applied 2 changes to 1 job")).toBeVisible();

    await page.getByRole("tab", { name: "Host × port map" }).click();
    await expect(hostRow(page, "a2-node2")).toContainText("training/resnet-train");
    await expect(hostRow(page, "a2-node2").locator("[data-conflict]")).toHaveCount(0);
    await expect(hostRow(page, "a2-node3").locator("[data-conflict]")).toHaveCount(0);
    await page.getByRole("tab", { name: /Findings/ }).click();
    await expect(page.getByRole("region", { name: "Findings" })).not.toContainText("PT001");

    // The job page's Ports section shows the applied block and no error.
    const jobs = (await (await page.request.get("/api/v1/jobs?cluster=atlas-a2-demo")).json()) as { items: { id: number; name: string }[] };
    const resnet = jobs.items.find((j) => j.name === "resnet-train")!;
    await page.goto(`/jobs/${resnet.id}`);
    const section = page.getByTestId("job-ports");
    await expect(section).toContainText("61000-61031");
    await expect(section).toContainText("no errors");
  });
});

test.describe("ports as a viewer", () => {
  test("reads the map and the policy, has no Plan or Apply, and the API refuses a plan", async ({ page, baseURL }) => {
    await page.goto(`${portsUrl}&tab=policy`);
    await expect(page.getByRole("tab", { name: "Port policy", selected: true })).toBeVisible();
    await expect(page.getByText("HCCL host-side ports")).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit policy" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Plan" }).click();
    await expect(page.getByText("Editors plan and apply port changes.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Plan$/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Host × port map" }).click();
    await expect(hostRow(page, "a2-node2")).toContainText("training/bert-pretrain");
    const response = await page.request.post("/api/v1/clusters/atlas-a2-demo/ports/plan", { data: { apply: true }, headers: { origin: baseURL! } });
    expect(response.status()).toBe(403);
  });
});
