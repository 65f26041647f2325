import { expect, test } from "@playwright/test";
import { a2TopoNotDefault, kunpeng920Lscpu } from "../lib/affinity/fixtures/real-shapes";

test("plan a CPU_AFFINITY_CONF for a server whose NPU0 is on node 6, then check a value with overlapping ranges", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "CPU affinity" }).click();
  await expect(page).toHaveURL(/\/affinity$/);
  await page.getByTestId("affinity-lscpu").fill(kunpeng920Lscpu);
  await page.getByTestId("affinity-topo").fill(a2TopoNotDefault);

  await page.getByRole("tab", { name: "Plan a value" }).click();
  await page.getByTestId("affinity-npus").fill("0-7");
  await page.getByTestId("affinity-reserve").fill("2");
  await page.getByRole("button", { name: "Plan" }).click();
  await expect(page.getByTestId("affinity-env")).toHaveText(
    "export CPU_AFFINITY_CONF=mode:1,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119,npu4:2-12,npu5:13-23,npu6:50-60,npu7:61-71",
  );
  await expect(page.getByTestId("affinity-explanations")).toContainText("default blocks do not follow this server's NPU-to-NUMA mapping");
  // NPU0's cores are drawn on node 6, the node's first two cores kept free.
  const node6 = page.getByTestId("numa-node-6");
  await expect(node6).toContainText("NPU 0");
  await expect(node6.locator('[data-cpu="146"]')).toHaveAttribute("data-npu", "0");
  await expect(node6.locator('[data-cpu="144"]')).toHaveText("R");
  // The shell prompt pasted with the topo is reported, not dropped.
  await expect(page.getByText("1 line(s) not understood and skipped")).toBeVisible();

  await page.getByRole("tab", { name: "Check a value" }).click();
  await page.getByTestId("affinity-value").fill("mode:1,npu0:144-155,npu1:150-167");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  // npu2…npu7 keep their default blocks, so npu6's 144-167 also meets both overrides: three overlaps.
  const overlaps = page.locator('[data-testid="affinity-finding"][data-code="CA009"]');
  await expect(overlaps).toHaveCount(3);
  await expect(overlaps.filter({ hasText: "npu0 and npu1 share CPUs 150-155" })).toBeVisible();
  await expect(node6.locator('[data-cpu="152"]')).toHaveAttribute("data-overlap", "true");
  await expect(node6.locator('[data-cpu="152"]')).toHaveText("×");
});
