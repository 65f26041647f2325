import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { storageStateOf } from "./accounts";
import { judgeLongTasks, observeLongTasks, takeLongTasks } from "./long-tasks";

/*
 * The SuperCluster-shaped cluster the e2e server is seeded with (RANKSCOPE_SEED_SCALE=1, lib/topology/large-cluster.ts
 * `e2eSuperCluster`): 64 super pods, pod-0 of 65 servers (1,040 dies) and 63 pods of 16 servers (256 dies each),
 * 1,073 servers and 17,168 dies in all: past both aggregation thresholds (lib/topology/view-cluster.ts, view-pod.ts).
 */
const CLUSTER = "supercluster-e2e";
const NAME = "SuperCluster (e2e, 64 super pods)";
/** The 1,040 plain A2 servers seeded beside it (lib/topology/large-cluster.ts `e2ePlainCluster`). */
const PLAIN = "a2-plain-e2e";

const graph = (page: Page) => page.getByRole("region", { name: "Topology graph" });
const summary = (page: Page) => page.getByTestId("view-summary");
const details = (page: Page) => page.getByRole("region", { name: "Details" });

/** The long tasks that began after the topology page hydrated (its `topology:hydrated` mark), longest first; taken. */
const tasksAfterHydration = (page: Page) => takeLongTasks(page, "topology:hydrated");

/** One open fault on one die of 17,168: device 5 of p37-s011 (super pod pod-37). The same id each time: posted again, it changes nothing. */
async function faultOneDie(page: Page, baseURL: string) {
  const posted = await page.request.post("/api/v1/fault-events", {
    headers: { origin: baseURL },
    data: [{ id: "e2e-scale-p37-s011-d5", cluster: CLUSTER, kind: "npu-chip-fault", code: "80E18402", level: "SeparateNPU", target: { server: "p37-s011", die: 5 }, beganAt: new Date(Date.now() - 60_000).toISOString() }],
  });
  expect(posted.status(), await posted.text()).toBe(200);
}

async function drawn(page: Page, testInfo: TestInfo, name: string) {
  await expect(graph(page).locator('[data-drawn="true"]')).toBeVisible({ timeout: 30_000 });
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
}

test.describe("Topology at SuperCluster scale", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("browses 64 super pods from the overview to one faulty die and back; the pod with that one die stands out; no long task after hydration", async ({ page, baseURL }, testInfo) => {
    test.setTimeout(180_000);
    await faultOneDie(page, baseURL!);
    await observeLongTasks(page);
    const longTasks: { view: string; start: number; duration: number }[] = [];
    const collect = async (view: string) => longTasks.push(...(await tasksAfterHydration(page)).map((task) => ({ view, ...task })));

    await page.goto("/");
    await page.getByRole("region", { name: NAME }).getByRole("link", { name: /Open topology/ }).click();
    await expect(page).toHaveURL(new RegExp(`/topology\\?cluster=${CLUSTER}$`));
    await expect(page.getByText("64 super pods · 1,073 servers · 8,584 NPUs · 17,168 dies")).toBeVisible();
    // Super pods are drawn as aggregates (one cell each, its dies' health as a bar), attached to the parameter plane.
    await expect(summary(page)).toHaveText("Cluster · 64 super pods as aggregates · parameter plane, shape unknown");
    await drawn(page, testInfo, "cluster of 64 super pods as aggregates");

    // The one faulty die of 17,168 marks its pod, with the count: the only pod needing attention.
    const attention = page.getByRole("region", { name: "Needing attention" });
    await expect(attention.getByRole("listitem")).toHaveCount(1);
    const pod37 = attention.getByRole("link", { name: "Super pod pod-37: 1 faulty · 255 healthy" });
    await expect(pod37).toBeVisible();
    await collect("cluster");

    // Into the pod (256 dies: drawn die by die), then its server, then the die.
    await pod37.click();
    await expect(page).toHaveURL(/level=superpod&id=pod-37/);
    await expect(summary(page)).toHaveText(/^Super pod · 256 dies/);
    await drawn(page, testInfo, "super pod pod-37");
    const search = page.getByRole("combobox", { name: "Search the topology" });
    await search.fill("p37-s011");
    await search.press("Enter");
    await expect(page).toHaveURL(/level=superpod&id=pod-37&sel=server%3Ap37-s011/);
    await expect(details(page).getByRole("row", { name: /Health\s*Faulty/ })).toBeVisible();
    await details(page).getByRole("button", { name: "Open this server" }).click();
    await expect(page).toHaveURL(/level=server&id=p37-s011/);
    await expect(summary(page)).toHaveText("Server · 16 dies · 7 bus planes of 56 switches · parameter plane, shape unknown · 8 links: Backup rail (borrowed NIC)");
    await drawn(page, testInfo, "server p37-s011");
    await page.getByRole("region", { name: "Dies of this server" }).getByRole("row", { name: /^2\s+5\s+1\s/ }).click();
    await expect(page).toHaveURL(/sel=die%3Ap37-s011%2Fd5/);
    await expect(details(page).getByRole("row", { name: /Health\s*Faulty/ })).toBeVisible();

    // Its neighbourhood: 1 hop along HCCS and RoCE from this die: the same device of the ring's and the next pods' neighbours.
    await page.getByRole("combobox", { name: "Hops" }).click();
    await page.locator(".ant-select-item-option[title='1 hop out']").click();
    await expect(page).toHaveURL(/hops=1/);
    await page.getByRole("button", { name: "Expand from the selected die" }).click();
    await expect(page).toHaveURL(/hops=1.*from=p37-s011%2Fd5|from=p37-s011%2Fd5.*hops=1/);
    await expect(page.getByTestId("neighbourhood-summary")).toHaveText(/^1 hop from p37-s011\/d5: \d+ dies on \d+ servers drawn$/);
    await drawn(page, testInfo, "one hop from the faulty die");
    await collect("server and neighbourhood");

    const neighbourhoodUrl = page.url();

    // And back, one step at a time: every step is in the URL (the seed die, then the hops).
    await page.goBack();
    await expect(page).not.toHaveURL(/from=/);
    await expect(page.getByTestId("neighbourhood-summary")).toHaveText(/^1 hop from p37-s011: \d+ dies on \d+ servers drawn$/);
    await page.goBack();
    await expect(page).not.toHaveURL(/hops=/);
    await expect(summary(page)).toHaveText("Server · 16 dies · 7 bus planes of 56 switches · parameter plane, shape unknown · 8 links: Backup rail (borrowed NIC)");
    await page.getByRole("navigation", { name: "Topology path" }).getByRole("link", { name: NAME }).click();
    await expect(page).not.toHaveURL(/level=/);
    await expect(summary(page)).toHaveText("Cluster · 64 super pods as aggregates · parameter plane, shape unknown", { timeout: 30_000 });
    await drawn(page, testInfo, "back at the cluster");

    // A pod of 65 servers is drawn by rack (8 servers, 64 NPUs each): search lands on the server in its rack's view.
    await search.fill("p0-s064");
    await search.press("Enter");
    await expect(page).toHaveURL(/level=rack&id=pod-0%2Frack8&sel=server%3Ap0-s064/);
    await expect(summary(page)).toHaveText(/^Rack · 16 dies/);
    await drawn(page, testInfo, "rack 8 of pod-0");
    await details(page).getByRole("button", { name: "Open this server" }).click();
    await expect(summary(page)).toHaveText("Server · 16 dies · 7 bus planes of 56 switches · parameter plane, shape unknown · 8 links: Backup rail (borrowed NIC)");
    await drawn(page, testInfo, "server p0-s064");
    // Its path runs through its rack; up to the pod, whose 9 racks are aggregates that open to their servers.
    const path = page.getByRole("navigation", { name: "Topology path" });
    await expect(path.getByRole("link", { name: /^Rack 8 · p0-s064$/ })).toBeVisible();
    await path.getByRole("link", { name: "Super pod pod-0" }).click();
    // The search box keeps its text in the URL (q) while browsing.
    await expect(page).toHaveURL(/level=superpod&id=pod-0(&q=[^&]*)?$/);
    await expect(summary(page)).toHaveText(/^Super pod · 9 racks as aggregates/);
    await expect(page.getByRole("region", { name: "Needing attention" })).toContainText("9 aggregates drawn; none has faulty or degraded dies.");
    await drawn(page, testInfo, "super pod of 9 racks as aggregates");
    await collect("big pod, its racks and its server");

    // A cluster of 1,040 plain A2 servers: 130 racks of 8, more than a row holds, so drawn by row of racks (row0 of
    // 128 racks, row1 of 2), on the parameter plane when the fabric has one (then no RoCE lines between rows); search
    // lands in a rack, whose path runs through its row; the row opens to its racks.
    await page.goto(`/topology?cluster=${PLAIN}`);
    await expect(summary(page)).toHaveText(/^Cluster · 2 rows of racks as aggregates/);
    const plainSummary = await summary(page).textContent();
    if (plainSummary?.includes("parameter plane")) expect(plainSummary).not.toContain("RoCE");
    await drawn(page, testInfo, "1,040 plain servers as 2 rows of racks");
    await collect("plain servers by row");
    await search.fill("a2-0517");
    await search.press("Enter");
    await expect(page).toHaveURL(/level=rack&id=rack64&sel=server%3Aa2-0517/);
    await expect(summary(page)).toHaveText(/^Rack · 64 dies/);
    await drawn(page, testInfo, "rack 64 of the plain servers");
    await collect("a rack of plain servers");
    await path.getByRole("link", { name: "Row 0 · a2-0000 – a2-1023" }).click();
    await expect(page).toHaveURL(/level=row&id=row0(&q=[^&]*)?$/);
    await expect(summary(page)).toHaveText(/^Row · 128 racks as aggregates/);
    await drawn(page, testInfo, "row 0 of the plain servers: 128 racks");
    await collect("a row of racks");
    // The last rack of row 0 links to the first of row 1: its link lands in row 1's view with that rack selected (the
    // cluster view draws rows, not racks), the rails between the rows drawn.
    await page.goto(`/topology?cluster=${PLAIN}&level=row&id=row0&sel=rack%3Arack127`);
    await drawn(page, testInfo, "row 0 with its last rack selected");
    await details(page).getByRole("link", { name: "Rack 128 · a2-1024 – a2-1031" }).click();
    await expect(page).toHaveURL(/level=row&id=row1&sel=rack%3Arack128/);
    await expect(summary(page)).toHaveText(/^Row · 2 racks as aggregates/);
    // Its details: named by its label, not its id, with no server id; its links to the racks either side, the one
    // before in row 0.
    await expect(details(page).getByText("Rack 128 · a2-1024 – a2-1031", { exact: true }).first()).toBeVisible();
    await expect(details(page).getByText("Rack rack128")).toHaveCount(0);
    await expect(details(page).getByText("Server id")).toHaveCount(0);
    await expect(details(page).getByRole("link", { name: "Rack 127 · a2-1016 – a2-1023" })).toBeVisible();
    await expect(details(page).getByRole("link", { name: "Rack 129 · a2-1032 – a2-1039" })).toBeVisible();
    await drawn(page, testInfo, "row 1 with rack 128 selected");
    await collect("a rack of another row, from a link");

    // A link to the neighbourhood opens it again.
    await page.goto(neighbourhoodUrl);
    await expect(page.getByTestId("neighbourhood-summary")).toHaveText(/^1 hop from p37-s011\/d5/);
    await drawn(page, testInfo, "the neighbourhood from its link");
    await collect("neighbourhood from its link");

    await testInfo.attach("long tasks after hydration", { body: JSON.stringify(longTasks, null, 2), contentType: "application/json" });
    judgeLongTasks(testInfo, longTasks, "main-thread tasks over 50 ms after hydration");
  });

  test("a neighbourhood's die table filters by health: the faulty die alone, and the count says of how many", async ({ page, baseURL }) => {
    await faultOneDie(page, baseURL!);
    await page.goto(`/topology?cluster=${CLUSTER}&level=server&id=p37-s011&hops=1`);
    const dies = page.getByRole("region", { name: "Dies of this server" });
    const rows = dies.locator("tbody tr.ant-table-row");
    await expect(rows).toHaveCount(32);
    const total = await dies.locator(".ant-tag").innerText();
    await dies.getByRole("button", { name: /filter/i }).click();
    await page.getByRole("menuitem", { name: "Faulty" }).click();
    await page.getByRole("button", { name: "OK" }).click();
    await expect(dies.locator(".ant-tag")).toHaveText(`1 of ${total}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Faulty");
    await rows.first().click();
    await expect(page).toHaveURL(/sel=die%3Ap37-s011%2Fd5/);
  });

  test("a job on two super pods is drawn over the aggregated cluster: each pod says how many of its dies the job has, and how many are faulty", async ({ page, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    await faultOneDie(page, baseURL!);
    const device = (pod: number, slot: number, id: number, rank: number) => ({ device_id: String(id), device_ip: `10.${pod}.${slot}.${6 + id}`, rank_id: String(rank) });
    const rankTable = {
      version: "1.0",
      status: "completed",
      server_count: "2",
      server_list: [
        { server_id: "p37-s011", device: [device(37, 11, 4, 0), device(37, 11, 5, 1)] },
        { server_id: "p38-s011", device: [device(38, 11, 4, 2), device(38, 11, 5, 3)] },
      ],
    };
    const created = await page.request.post("/api/v1/jobs", {
      headers: { origin: baseURL!, "content-type": "application/json" },
      data: { cluster: CLUSTER, name: `e2e-scale-job-${Date.now()}`, state: "running", rankTable: JSON.stringify(rankTable) },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const job = (await created.json()) as { id: number };
    const view = (await (await page.request.get(`/api/v1/clusters/${CLUSTER}/topology?job=${job.id}`)).json()) as { nodes: { id: string; job?: unknown }[] };
    expect(view.nodes.filter((node) => node.job).map((node) => [node.id, node.job])).toEqual([
      ["pod-37", { dies: 2, faulty: 1, degraded: 0 }],
      ["pod-38", { dies: 2, faulty: 0, degraded: 0 }],
    ]);
    await page.goto(`/jobs/${job.id}`);
    await expect(page.getByTestId("job-topology").locator('[data-drawn="true"]')).toBeVisible({ timeout: 30_000 });
    await testInfo.attach("job over 64 aggregated super pods", { body: await page.screenshot(), contentType: "image/png" });
  });

  test("in Chinese and the dark theme, the pod with the faulty die is named in words too", async ({ browser, page: editor, baseURL }) => {
    await faultOneDie(editor, baseURL!);
    const context = await browser.newContext({ locale: "zh-CN", storageState: storageStateOf("viewer") });
    await context.addCookies([{ name: "rankscope-theme", value: "dark", url: baseURL! }]);
    const page = await context.newPage();
    await page.goto(`/topology?cluster=${CLUSTER}`);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByTestId("view-summary")).toHaveText("集群 · 64 个超节点以聚合绘制 · 参数面，形态未知");
    await expect(page.getByRole("region", { name: "需要关注" }).getByRole("link", { name: /pod-37：?.*1 个故障 · 255 个健康/ })).toBeVisible();
    await expect(page.getByRole("region", { name: "拓扑图" }).locator('[data-drawn="true"]')).toBeVisible({ timeout: 30_000 });
    await context.close();
  });
});
