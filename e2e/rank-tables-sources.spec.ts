/**
 * Where rank tables come from and what they are tied to: hccn.conf files, the inventory, an old revision restored as
 * a new one (with its structural diff), and the link to a cluster of the inventory.
 */
import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { demoClusters } from "../lib/inventory/demo";
import { generateFromHccn, type HccnServer } from "../lib/rank-table/generate";
import { parseRankTable } from "../lib/rank-table/parse";
import { writeRankTable } from "../lib/rank-table/write";
import { tableFromInventory } from "../lib/rank-table-workspace/from-inventory";
import { storageStateOf } from "./accounts";

const seedExample = "lib/rank-table/fixtures/seed-super-pod.jsonc";
const a2Name = "Atlas 800T A2 training (demo)";
const a3Name = "Atlas 900 A3 SuperPoD (demo)";

const field = (page: Page, name: string, device: string, server: string) => page.getByRole("textbox", { name: `${name} of die ${device} on ${server}`, exact: true });
const report = (page: Page) => page.getByRole("status", { name: "Validation report" });
const linkedCluster = (page: Page) => page.getByRole("combobox", { name: "Linked cluster" });
/** The keys of the drafts the browser keeps (components/rank-tables/drafts.ts): "new" or a table's id. */
const draftKeys = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const opened = indexedDB.open("rankscope-drafts");
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
          const keys = opened.result.transaction("drafts").objectStore("drafts").getAllKeys();
          keys.onsuccess = () => {
            resolve(keys.result.map(String));
            opened.result.close();
          };
        };
      }),
  );
/** The antd Select around a combobox, which shows the chosen option. */
const selectOf = (page: Page, name: string) => page.locator(".ant-select", { has: page.getByRole("combobox", { name, exact: true }) });

/** Picks an option of the antd Select named `name` inside `scope` (the console's header has its own "Cluster"). */
async function choose(scope: Page | Locator, name: string, option: string) {
  await scope.getByRole("combobox", { name, exact: true }).click();
  const page = "page" in scope ? scope.page() : scope;
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).click();
}

/** An /etc/hccn.conf as hccn_tool writes it: address_N, netmask_N and others per die. */
function hccnConf(subnet: number, dies: number): string {
  return Array.from({ length: dies }, (_, die) => `address_${die}=192.168.${subnet}.${6 + die}\nnetmask_${die}=255.255.255.0\nnetdetect_${die}=192.168.${subnet}.1`).join("\n") + "\n";
}

interface Detail {
  id: number;
  revision: number;
  clusterId: number | null;
  clusterName: string | null;
}

async function createTable(request: APIRequestContext, baseURL: string, name: string, text: string): Promise<Detail> {
  const created = await request.post("/api/v1/rank-tables", { data: { name, text }, headers: { origin: baseURL } });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as Detail;
}

const fetchTable = async (request: APIRequestContext, id: number) => (await (await request.get(`/api/v1/rank-tables/${id}`)).json()) as Detail;
const exported = async (request: APIRequestContext, id: number, revision?: number) => (await request.get(`/api/v1/rank-tables/${id}/export?format=json${revision ? `&revision=${revision}` : ""}`)).text();

test.describe("Rank table sources (editor)", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("builds a table from hccn.conf files: a dropped file for a server already there replaces it; the table validates and saves as generated", async ({ page, request }) => {
    await page.goto("/rank-tables/new");
    await page.getByRole("tab", { name: "From hccn.conf files" }).click();
    const panel = page.getByRole("tabpanel", { name: "From hccn.conf files" });
    const files = panel.locator('input[type="file"]');
    const file = (name: string, subnet: number) => ({ name, mimeType: "text/plain", buffer: Buffer.from(hccnConf(subnet, 16)) });
    await files.setInputFiles([file("node-1.conf", 1)]);
    await expect(panel).toContainText("1 server: node-1");
    await files.setInputFiles([file("node-2.conf", 2)]);
    await expect(panel).toContainText("2 servers: node-1, node-2");
    // The second server's file again, corrected: it replaces the first one.
    await files.setInputFiles([file("node-2.conf", 20)]);
    await expect(panel).toContainText("2 servers: node-1, node-2");

    await panel.getByText("Super pod (1.2)").click();
    await panel.getByRole("spinbutton", { name: "Base port (optional)" }).fill("16666");
    await panel.getByRole("button", { name: "Build the table" }).click();

    await expect(report(page)).toContainText("Valid: HCCL accepts this table");
    await expect(report(page)).toContainText("1 super pod, 2 servers, 32 ranks");
    // hccn.conf has no host IP: HCCL's retry between servers is off, which the panel says for each server.
    await expect(page.getByRole("row", { name: /RT024/ })).toHaveCount(2);
    // The first server's first NPU: its two dies are each other's backup NIC. (The replaced node-2 is checked in the saved file.)
    await expect(field(page, "device_ip", "1", "node-1")).toHaveValue("192.168.1.7");
    await expect(field(page, "backup_device_ip", "0", "node-1")).toHaveValue("192.168.1.7");
    await expect(field(page, "backup_device_ip", "1", "node-1")).toHaveValue("192.168.1.6");
    await expect(selectOf(page, "Linked cluster")).toContainText("No cluster");

    await page.getByRole("textbox", { name: "Name", exact: true }).fill(`hccn ${Date.now()}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/rank-tables\/\d+$/);
    const id = Number(page.url().split("/").pop());
    const servers: HccnServer[] = [
      { serverId: "node-1", hccnConf: hccnConf(1, 16) },
      { serverId: "node-2", hccnConf: hccnConf(20, 16) },
    ];
    expect(await exported(request, id)).toBe(writeRankTable(generateFromHccn(servers, { version: "1.2", basePort: 16666 })));
    expect((await fetchTable(request, id)).clusterId).toBeNull();
  });

  test("builds a table from the inventory (the A3 cluster, three servers, version 1.2, a port plan): it validates clean and is saved linked to that cluster", async ({ page, request }) => {
    await page.goto("/rank-tables/new");
    await page.getByRole("tab", { name: "Build from inventory" }).click();
    const panel = page.getByRole("tabpanel", { name: "Build from inventory" });
    await choose(panel, "Cluster", a3Name);
    const parts = panel.getByRole("combobox", { name: "Super pods or servers" });
    await expect(parts).toBeEnabled();
    for (const server of ["sp0-node00", "sp0-node01", "sp1-node00"]) {
      await parts.click();
      await parts.fill(server);
      await page.locator(".ant-select-dropdown:visible .ant-select-tree-node-content-wrapper", { hasText: server }).click();
    }
    await page.keyboard.press("Escape");
    await panel.getByText("Super pod (1.2)").click();
    await panel.getByRole("spinbutton", { name: "Base port (optional)" }).fill("20000");
    await panel.getByRole("button", { name: "Build the table" }).click();

    await expect(report(page)).toContainText("Valid: HCCL accepts this table");
    await expect(report(page)).toContainText("0 errors, 0 warnings, 0 notes");
    await expect(report(page)).toContainText("2 super pods, 3 servers, 48 ranks");
    await expect(selectOf(page, "Linked cluster")).toContainText(a3Name);
    await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("atlas-a3-demo");

    await page.getByRole("textbox", { name: "Name", exact: true }).fill(`a3 part ${Date.now()}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/rank-tables\/\d+$/);
    const id = Number(page.url().split("/").pop());
    expect(await fetchTable(request, id)).toMatchObject({ revision: 1, clusterName: a3Name });
    const a3 = demoClusters().find((cluster) => cluster.name === a3Name)!;
    expect(await exported(request, id)).toBe(writeRankTable(tableFromInventory(a3, { servers: ["sp0-node00", "sp0-node01", "sp1-node00"], version: "1.2", basePort: 20000 })));
    await expect(selectOf(page, "Linked cluster")).toContainText(a3Name);
  });

  test("restores an old revision as a new one and shows the structural diff", async ({ page, request, baseURL }) => {
    const seed = writeRankTable(parseRankTable(await readFile(seedExample, "utf8")).value!);
    const created = await createTable(request, baseURL!, `restore ${Date.now()}`, seed);
    const edited = JSON.parse(seed) as { server_count: string; server_list: { device: { device_ip: string }[] }[]; super_pod_list: { server_list: unknown[] }[] };
    edited.server_list[1]!.device[0]!.device_ip = "192.168.2.66";
    edited.server_list.pop();
    edited.super_pod_list[1]!.server_list.pop();
    edited.server_count = "3";
    const saved = await request.put(`/api/v1/rank-tables/${created.id}`, { data: { text: JSON.stringify(edited), comment: "drop node_3" }, headers: { origin: baseURL!, "if-match": '"1"' } });
    expect(saved.status(), await saved.text()).toBe(200);

    await page.goto(`/rank-tables/${created.id}?tab=history`);
    await expect(page.getByRole("row", { name: /^#2 \(current\)/ })).toContainText("drop node_3");
    await page.getByRole("row", { name: /^#1 / }).getByRole("button", { name: "Restore" }).click();
    const confirm = page.locator(".ant-popover:visible");
    await expect(confirm).toContainText("Restore revision 1? It is saved as the new revision 3");
    await confirm.getByRole("button", { name: "Restore" }).click();

    await expect(page.getByText("Revision 3", { exact: true })).toBeVisible();
    await expect(page.getByRole("row", { name: /^#3 \(current\)/ })).toContainText("Restored revision 1");
    await expect(page.getByRole("row", { name: /^#1 / })).toBeVisible();
    expect(await exported(request, created.id)).toBe(seed);

    // #2 → #3: what the restore changed, structurally.
    await expect(selectOf(page, "From revision")).toContainText("#2");
    await expect(selectOf(page, "To revision")).toContainText("#3");
    await expect(page.getByText("1 server added, 0 removed, 0 moved; 0 dies added, 0 removed; 2 fields changed")).toBeVisible();
    await expect(page.getByRole("row", { name: /server added/ })).toContainText("node_3");
    await expect(page.getByRole("row", { name: /server added/ })).toContainText("4 dies");
    const ip = page.getByRole("row", { name: /field changed node_1 \/ 0/ });
    await expect(ip).toContainText("device_ip");
    await expect(ip).toContainText("192.168.2.66");
    await expect(ip).toContainText("192.168.2.6");
    await expect(page.getByRole("row", { name: /field changed \/ server_count/ })).toContainText("3");

    // #1 → #3: the restored revision is the old one exactly.
    await choose(page, "From revision", "#1");
    await expect(page.getByText("No differences")).toBeVisible();
  });

  test("a new table's draft keeps its cluster link: after a reload, restoring it and saving links the table", async ({ page, request }) => {
    const name = `draft link ${Date.now()}`;
    await page.goto("/rank-tables/new");
    await page.locator('input[type="file"]').first().setInputFiles(seedExample);
    await expect(report(page)).toContainText("Valid: HCCL accepts this table");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await choose(page, "Linked cluster", a2Name);
    await expect(selectOf(page, "Linked cluster")).toContainText(a2Name);
    // The draft is written a moment after the last change.
    await page.waitForTimeout(1500);
    await page.reload();
    await page.getByRole("button", { name: "Restore them" }).click();
    await expect(report(page)).toContainText("Valid: HCCL accepts this table");
    await expect(selectOf(page, "Linked cluster")).toContainText(a2Name);
    expect(await draftKeys(page)).toContain("new");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/rank-tables\/\d+/);
    const id = Number(/\/rank-tables\/(\d+)/.exec(page.url())![1]);
    expect(await fetchTable(request, id)).toMatchObject({ revision: 1, clusterName: a2Name });
    // The saved work is no longer offered back as a draft.
    await expect.poll(() => draftKeys(page)).not.toContain("new");
  });

  test("links a saved table to a cluster and unlinks it, without a new revision; a save keeps the link; the list filters by cluster", async ({ page, request, baseURL, browser }) => {
    const name = `link ${Date.now()}`;
    const created = await createTable(request, baseURL!, name, await readFile(seedExample, "utf8"));
    expect(created.clusterId).toBeNull();
    await page.goto(`/rank-tables/${created.id}`);
    await expect(selectOf(page, "Linked cluster")).toContainText("No cluster");
    await choose(page, "Linked cluster", a2Name);
    await expect(page.getByText(`Linked to ${a2Name}`)).toBeVisible();
    await expect(selectOf(page, "Linked cluster")).toContainText(a2Name);
    await expect(page.getByText("Revision 1", { exact: true })).toBeVisible();
    expect(await fetchTable(request, created.id)).toMatchObject({ revision: 1, clusterName: a2Name });

    // The editor's revision is still current: a save goes through and keeps the link.
    await field(page, "device_ip", "0", "node_1").fill("192.168.2.66");
    await field(page, "device_ip", "0", "node_1").press("Enter");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Revision 2", { exact: true })).toBeVisible();
    expect(await fetchTable(request, created.id)).toMatchObject({ revision: 2, clusterName: a2Name });

    // A viewer sees the link but cannot change it.
    const viewer = await browser.newContext({ storageState: storageStateOf("viewer") });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/rank-tables/${created.id}`);
    await expect(viewerPage.getByLabel("Linked cluster")).toHaveText(a2Name);
    await expect(linkedCluster(viewerPage)).toHaveCount(0);
    await viewer.close();

    await page.goto("/rank-tables");
    await page.getByLabel("Filter by name", { exact: true }).fill(name);
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText(a2Name);
    await choose(page, "Filter by cluster", "No cluster");
    await expect(row).toHaveCount(0);
    await choose(page, "Filter by cluster", a2Name);
    await expect(row).toBeVisible();
    // Both filters are in the URL: a reload, or the link pasted into a chat, shows the same list.
    const { clusterId } = await fetchTable(request, created.id);
    await expect(page).toHaveURL(new RegExp(`[?&]linked=${clusterId}(&|$)`));
    await page.reload();
    await expect(page.getByLabel("Filter by name", { exact: true })).toHaveValue(name);
    await expect(selectOf(page, "Filter by cluster")).toContainText(a2Name);
    await expect(row).toBeVisible();

    await row.getByRole("link", { name }).click();
    await expect(selectOf(page, "Linked cluster")).toContainText(a2Name);
    await selectOf(page, "Linked cluster").hover();
    await selectOf(page, "Linked cluster").locator(".ant-select-clear").click();
    await expect(page.getByText("No longer linked to a cluster")).toBeVisible();
    await expect(selectOf(page, "Linked cluster")).toContainText("No cluster");
    expect(await fetchTable(request, created.id)).toMatchObject({ revision: 2, clusterId: null, clusterName: null });
  });
});
