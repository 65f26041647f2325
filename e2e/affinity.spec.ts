import { expect, test } from "@playwright/test";
import { a2TopoNotDefault, kunpeng920Lscpu } from "../lib/affinity/fixtures/real-shapes";
import { demoA2Cluster } from "../lib/inventory/demo";
import { demoFailedJob } from "../lib/jobs/demo-job";
import { storageStateOf } from "./accounts";

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

test.describe("stored layouts", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("pick a stored server, store its layout, plan, and a pasted link reproduces the state", async ({ page }) => {
    await page.goto("/affinity");
    const picker = page.getByTestId("affinity-server-picker");
    await picker.getByRole("combobox", { name: "Cluster", exact: true }).click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "Atlas 800T A2 training (demo)" }).click();
    await picker.getByRole("combobox", { name: "Server", exact: true }).click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "a2-node2 · Atlas 800T A2 · no layout stored" }).click();
    await expect(page.getByTestId("affinity-server-state")).toContainText("a2-node2 has no stored layout");
    await expect(page).toHaveURL(/\/affinity\?cluster=atlas-a2-demo&server=a2-node2$/);

    await page.getByTestId("affinity-lscpu").fill(kunpeng920Lscpu);
    await page.getByTestId("affinity-topo").fill(a2TopoNotDefault);
    await page.getByRole("button", { name: "Store the layout" }).click();
    await expect(page.getByText("Layout stored for 1 server(s).")).toBeVisible();

    await page.getByRole("tab", { name: "Plan a value" }).click();
    await page.getByTestId("affinity-npus").fill("0-7");
    await page.getByTestId("affinity-reserve").fill("2");
    await page.getByText("mode:2 (main threads pinned)").click();
    await page.getByRole("button", { name: "Plan", exact: true }).click();
    const planned = "export CPU_AFFINITY_CONF=mode:2,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119,npu4:2-12,npu5:13-23,npu6:50-60,npu7:61-71";
    await expect(page.getByTestId("affinity-env")).toHaveText(planned);
    await expect(page).toHaveURL(/cluster=atlas-a2-demo&server=a2-node2&tab=plan&npus=0-7&reserve=2&mode=2$/);

    // The link alone: the stored texts come back, the options too, and the plan is shown without a click.
    const link = page.url();
    const fresh = await page.context().newPage();
    await fresh.goto(link);
    await expect(fresh.getByTestId("affinity-server-state")).toContainText("Loaded the stored lscpu and topo of a2-node2");
    await expect(fresh.getByTestId("affinity-lscpu")).toHaveValue(/Model name:\s+Kunpeng-920/);
    await expect(fresh.getByTestId("affinity-npus")).toHaveValue("0-7");
    await expect(fresh.getByTestId("affinity-reserve")).toHaveValue("2");
    await expect(fresh.getByTestId("affinity-env")).toHaveText(planned);
    await expect(fresh.getByTestId("numa-node-6").locator('[data-cpu="144"]')).toHaveText("R");
  });

  test("the job page's CPU binding checks the job's value and proposes one per server group", async ({ page, baseURL }) => {
    const headers = { origin: baseURL!, "content-type": "application/json" };
    const stored = await page.request.put("/api/v1/clusters/atlas-a2-demo/servers/a2-node0/cpu-layout", {
      headers,
      data: { lscpu: kunpeng920Lscpu, topo: a2TopoNotDefault, scope: "server" },
    });
    expect(stored.status()).toBe(200);
    const { rankTable } = demoFailedJob(demoA2Cluster(), { phase: "load", servers: 2, culpritRank: 1 });
    const created = await page.request.post("/api/v1/jobs", {
      headers,
      data: { cluster: "atlas-a2-demo", name: `e2e-affinity-${Date.now()}`, rankTable, environment: { CPU_AFFINITY_CONF: "mode:1" } },
    });
    expect(created.status()).toBe(201);
    const job = (await created.json()) as { id: number };

    await page.goto(`/jobs/${job.id}`);
    const section = page.getByTestId("job-cpu-binding");
    await expect(section.getByTestId("cpu-binding-current")).toContainText("CPU_AFFINITY_CONF=mode:1");
    const group = section.locator('[data-testid="cpu-binding-group"][data-key="Atlas 800T A2"]');
    await expect(group).toContainText("1 server(s): a2-node0 · NPUs 0-7");
    // The job's mode:1 binds NPU0 to 0-23 while it sits on node 6: a finding with its code.
    await expect(group.locator('[data-testid="affinity-finding"][data-code="CA012"]')).toHaveCount(8);
    await expect(group.getByTestId("affinity-env")).toHaveText(
      "export CPU_AFFINITY_CONF=mode:1,npu0:144-155,npu1:156-167,npu2:96-107,npu3:108-119,npu4:0-11,npu5:12-23,npu6:48-59,npu7:60-71",
    );
    const missing = section.getByTestId("cpu-binding-without-layout");
    await expect(missing).toContainText("a2-node1 · Atlas 800T A2");
    await expect(missing.getByRole("link", { name: "Add its layout" })).toHaveAttribute("href", "/affinity?cluster=atlas-a2-demo&server=a2-node1");

    // Two cores kept free per node: the proposal moves off each node's first cores.
    await section.getByRole("spinbutton", { name: "Cores kept free per node" }).fill("2");
    await expect(group.getByTestId("affinity-env")).toHaveText(
      "export CPU_AFFINITY_CONF=mode:1,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119,npu4:2-12,npu5:13-23,npu6:50-60,npu7:61-71",
    );
  });
});
