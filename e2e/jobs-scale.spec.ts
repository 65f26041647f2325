import { expect, test, type Page } from "@playwright/test";
import { e2eSuperCluster } from "../lib/topology/large-cluster";
import { storageStateOf } from "./accounts";

/*
 * A job on every die of the e2e SuperCluster (RANKSCOPE_SEED_SCALE=1: 64 super pods, 1,073 servers, 17,168 dies), and
 * two ranks on a server the inventory lacks: issue 21's "job page for a job on 100,000 ranks" at the size the e2e
 * server holds. The page gets counts and one page of ranks; paging, sorting, searching and filtering ask the server.
 */
const CLUSTER = "supercluster-e2e";
const DIES = 17_168;
const RANKS = DIES + 2;

/** A "1.0" rank table over every die in inventory order, one rank each, then two ranks on "nowhere-0". */
function wholeClusterTable(): string {
  let rank = 0;
  const serverList = e2eSuperCluster().servers.map((server) => ({
    server_id: server.serverId,
    device: server.npus.flatMap((npu) => npu.dies.map((die) => ({ device_id: String(die.deviceId), device_ip: die.deviceIp, rank_id: String(rank++) }))),
  }));
  serverList.push({ server_id: "nowhere-0", device: [0, 1].map((id) => ({ device_id: String(id), device_ip: `10.254.0.${id + 1}`, rank_id: String(rank++) })) });
  return JSON.stringify({ status: "completed", version: "1.0", server_count: String(serverList.length), server_list: serverList });
}

const ranksTable = (page: Page) => page.getByTestId("job-ranks");
const total = (page: Page) => page.getByTestId("job-ranks-total");
const search = (page: Page) => page.getByPlaceholder("Rank, server, device IP or die");
const rankHeader = (page: Page) => ranksTable(page).locator("th", { hasText: /^Rank$/ });
/** The rank numbers of the rows shown. */
/**
 * An option of the open Select, by its text: antd's listbox for screen readers holds only the options around the
 * active one, so the drawn item is clicked (as the other specs do).
 */
const option = (page: Page, text: RegExp) => page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text });

async function shownRanks(page: Page): Promise<string[]> {
  return ranksTable(page).locator("tbody tr.ant-table-row td:first-child").allInnerTexts();
}

test.describe("the job page of a job on every die of a SuperCluster", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("answers counts and a page of ranks, and pages, sorts, searches and filters them on the server", async ({ page, baseURL }, testInfo) => {
    test.setTimeout(300_000);
    const created = await page.request.post("/api/v1/jobs", {
      headers: { origin: baseURL!, "content-type": "application/json" },
      data: { cluster: CLUSTER, name: `e2e-every-die-${Date.now()}`, state: "running", startedAt: Date.now() - 600_000, rankTable: wholeClusterTable() },
      timeout: 120_000,
    });
    expect(created.status(), (await created.text()).slice(0, 500)).toBe(201);
    const job = (await created.json()) as {
      id: number;
      counts: { total: number; placed: number; unmatched: number };
      pods: unknown[];
      scope: { level: string; aggregated: boolean };
      ranks: { total: number; items: unknown[] };
      ports: { live: boolean; summary: { hosts: number; bindings: number } };
    };
    // The write's answer is bounded too: the job's port check comes in counts (its whole check was megabytes).
    expect((await created.body()).length).toBeLessThan(64 * 1024);
    expect(job.ports).toMatchObject({ live: true, summary: { hosts: 1_073 } });
    expect(job.ports.summary.bindings).toBeGreaterThan(DIES);
    expect(job.counts).toMatchObject({ total: RANKS, placed: DIES, unmatched: 2 });
    expect(job.pods).toHaveLength(64);
    // 1,073 servers are more than the cluster view draws one by one: its super pods are aggregates, which the page
    // asks for with the job's counts in each, beside the job's dies.
    expect(job.scope).toEqual({ level: "cluster", id: null, aggregated: true });
    expect(job.ranks.items).toHaveLength(50);

    // What the page fetches about the job stays small: no answer carries every rank.
    const sizes: { url: string; bytes: number }[] = [];
    page.on("response", async (response) => {
      if (!/\/api\/v1\/jobs\/\d+/.test(response.url())) return;
      sizes.push({ url: response.url(), bytes: (await response.body().catch(() => Buffer.alloc(0))).length });
    });

    await page.goto(`/jobs/${job.id}`);
    // Its topology: the super pods as aggregates, each counting the job's dies in it.
    await expect(page.getByTestId("job-topology").locator('[data-drawn="true"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("placement-summary")).toContainText(/17,?168 of 17,?170 ranks placed on 1,?073 servers/);
    await expect(total(page)).toHaveText(/17,?170 ranks/);
    // Ranks that match no die come first, with why.
    await expect(ranksTable(page).locator("tbody tr.ant-table-row").first()).toContainText("nowhere-0");
    await expect(ranksTable(page).locator("tbody tr.ant-table-row")).toHaveCount(50);

    // The next page: ranks 48 to 97 (the two strays took the first two rows). The first page is server-rendered, so
    // a click before hydration does nothing: page 2 is clicked again until it shows (clicking it twice stays on it).
    await expect(async () => {
      await ranksTable(page).locator(".ant-pagination-item-2").click();
      await expect.poll(() => shownRanks(page), { timeout: 5_000 }).toEqual(Array.from({ length: 50 }, (_, i) => String(48 + i)));
    }).toPass({ timeout: 60_000 });

    // Sorted by rank, descending, on the server: the highest ranks of all 17,170, not of the page.
    await rankHeader(page).click();
    await expect.poll(async () => (await shownRanks(page)).slice(0, 2)).toEqual(["0", "1"]);
    await rankHeader(page).click();
    await expect.poll(async () => (await shownRanks(page)).slice(0, 3)).toEqual(["17169", "17168", "17167"]);

    // The last page, through the pagination.
    await ranksTable(page).locator(".ant-pagination-item").last().click();
    await expect.poll(async () => (await shownRanks(page)).at(-1)).toBe("0");

    // Search a rank among 17,170.
    await search(page).fill("12345");
    await search(page).press("Enter");
    await expect.poll(() => shownRanks(page)).toContain("12345");
    await expect(total(page)).toContainText(/of 17,?170/);

    // Only the ranks that match no die.
    await search(page).fill("");
    await search(page).press("Enter");
    await page.getByRole("combobox", { name: "Which ranks" }).click();
    await option(page, /^Not placed$/).click();
    await expect(total(page)).toHaveText(/^2 ranks of 17,?170$/);
    await expect(ranksTable(page).locator("tbody tr.ant-table-row")).toHaveCount(2);

    // One super pod of 64.
    await page.getByRole("combobox", { name: "Which ranks" }).click();
    await option(page, /^All ranks$/).click();
    await page.getByRole("combobox", { name: "Super pod" }).click();
    await page.getByRole("combobox", { name: "Super pod" }).fill("pod-37");
    await option(page, /^pod-37:/).click();
    await expect(total(page)).toHaveText(/^256 ranks of 17,?170$/);
    await expect.poll(async () => (await ranksTable(page).locator("tbody tr.ant-table-row td:nth-child(2)").allInnerTexts()).every((server) => server.startsWith("p37-"))).toBe(true);

    await testInfo.attach("job answers", { body: JSON.stringify(sizes, null, 1), contentType: "application/json" });
    expect(sizes.length).toBeGreaterThan(0);
    // The page's biggest answer about the job: a page of ranks or the summary, far from 17,170 ranks (~3 MB).
    expect(Math.max(...sizes.map((s) => s.bytes))).toBeLessThan(256 * 1024);
  });
});
