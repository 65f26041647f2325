import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { parseRankTable } from "../lib/rank-table/parse";
import { writeRankTable } from "../lib/rank-table/write";
import { storageStateOf } from "./accounts";

const seedExample = "lib/rank-table/fixtures/seed-super-pod.jsonc";

async function importSeed(page: Page) {
  await page.goto("/rank-tables/new");
  await page.locator('input[type="file"]').first().setInputFiles(seedExample);
  await expect(page.getByRole("status", { name: "Validation report" })).toContainText("Valid: HCCL accepts this table");
}

const deviceIp = (page: Page, server: string, device: string) => page.getByRole("textbox", { name: `device_ip of die ${device} on ${server}`, exact: true });

test.describe("Rank table workspace (editor)", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("the structure tree lists a super pod's servers while it is open, and again once it is opened after closing", async ({ page }) => {
    await importSeed(page);
    const tree = page.getByRole("tree", { name: "Structure" });
    const pod = tree.getByRole("treeitem", { name: /Super pod 0 \(2\)$/ });
    const server = tree.getByRole("treeitem", { name: /node_1 \(4\)$/ });
    await expect(server).toBeVisible();
    await pod.locator(".ant-tree-switcher").click();
    await expect(server).toHaveCount(0);
    await expect(tree.getByRole("treeitem")).toHaveCount(4);
    await pod.locator(".ant-tree-switcher").click();
    await expect(server).toBeVisible();
    await server.getByText(/node_1/).click();
    await expect(deviceIp(page, "node_1", "0")).toBeVisible();
    await expect(deviceIp(page, "node_0", "0")).toHaveCount(0);
  });

  test("imports the seed's super pod example clean; a duplicate device IP shows on the field and in the panel; undo fixes it; export is canonical; save", async ({ page }) => {
    await importSeed(page);
    const report = page.getByRole("status", { name: "Validation report" });
    await expect(report).toContainText("Super pod mode");
    const problems = page.getByRole("region", { name: /problem/ }).or(page.locator("section[aria-labelledby=problems-heading]"));
    await expect(problems.getByRole("row", { name: /RT001/ })).toContainText("comment");

    const field = deviceIp(page, "node_1", "0");
    await expect(field).toHaveValue("192.168.2.6");
    await field.fill("192.168.1.6");
    await field.press("Enter");
    await expect(report).toContainText("1 error: HCCL would reject this table");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // The field says why on hover: its findings are its title.
    await expect(field).toHaveAttribute("title", /^RT036: /);
    const duplicate = problems.getByRole("row", { name: /RT036/ });
    await expect(duplicate).toContainText("/server_list/1/device/0/device_ip");
    await expect(duplicate).toContainText("/server_list/0/device/0");

    // The panel selects the field.
    await page.getByRole("button", { name: "Undo" }).focus();
    await duplicate.click();
    await expect(field).toBeFocused();

    await page.getByRole("button", { name: "Undo" }).click();
    await expect(report).toContainText("Valid: HCCL accepts this table");
    await expect(field).toHaveValue("192.168.2.6");
    await expect(field).not.toHaveAttribute("aria-invalid", "true");
    await expect(field).not.toHaveAttribute("title");

    await page.getByRole("button", { name: "Export" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Download canonical JSON" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("seed-super-pod.json");
    const exported = await readFile((await download.path())!, "utf8");
    const canonical = writeRankTable(parseRankTable(await readFile(seedExample, "utf8")).value!);
    expect(exported).toBe(canonical);

    await page.getByRole("textbox", { name: "Comment for this revision" }).fill("first import");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/rank-tables\/\d+$/);
    await expect(page.getByText("Revision 1", { exact: true })).toBeVisible();
    const id = page.url().split("/").pop()!;
    const stored = await page.request.get(`/api/v1/rank-tables/${id}/export?format=json`);
    expect(await stored.text()).toBe(canonical);

    // The JSON view shows the same table, with a finding inline at its line.
    await deviceIp(page, "node_1", "0").fill("192.168.1.6");
    await deviceIp(page, "node_1", "0").press("Enter");
    await page.getByRole("tab", { name: "JSON" }).click();
    await expect(page).toHaveURL(/tab=json/);
    const inText = problems.getByRole("row", { name: /RT036/ });
    await expect(inText).toContainText(/\d+:\d+/);
    await inText.click();
    await expect(page.getByTestId("raw-json")).toContainText('"device_ip": "192.168.1.6"');
    await expect(page.locator(".cm-lintRange-error").first()).toBeVisible();
  });

  test("asks before exporting a table with errors, naming the count", async ({ page }) => {
    await page.goto("/rank-tables/new");
    const source = await readFile(seedExample, "utf8");
    await page.getByRole("textbox", { name: "Rank table text" }).fill(source.replace('"rank_id": "0"', '"rank_id": 0'));
    await page.getByRole("button", { name: "Open in the editor" }).click();
    await expect(page.getByRole("status", { name: "Validation report" })).toContainText("1 error");
    await page.getByRole("button", { name: "Export" }).click();
    await page.getByRole("menuitem", { name: "Download canonical JSON" }).click();
    await expect(page.getByText("This table has 1 error.")).toBeVisible();
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export anyway" }).click();
    const exported = await readFile((await (await downloading).path())!, "utf8");
    expect(exported.startsWith('{\n  "status": "completed",\n  "version": "1.2",')).toBe(true);
    expect(exported).toContain('"rank_id": "0"');
    expect(exported).not.toContain("//");
  });

  test("a conflicting save from a second browser: the dialog shows both, merge keeps both edits", async ({ page, browser, request, baseURL }) => {
    const created = await request.post("/api/v1/rank-tables", {
      data: { name: `conflict ${Date.now()}`, text: await readFile(seedExample, "utf8") },
      headers: { origin: baseURL! },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const other = await browser.newContext({ storageState: storageStateOf("editor") });
    const second = await other.newPage();
    await page.goto(`/rank-tables/${id}`);
    await second.goto(`/rank-tables/${id}`);

    await deviceIp(page, "node_2", "0").fill("192.168.3.66");
    await deviceIp(page, "node_2", "0").press("Enter");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Revision 2", { exact: true })).toBeVisible();

    await deviceIp(second, "node_3", "1").fill("192.168.4.77");
    await deviceIp(second, "node_3", "1").press("Enter");
    await second.getByRole("button", { name: "Save" }).click();
    const dialog = second.getByRole("dialog", { name: "Someone saved this table in the meantime" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Revision 2 was saved by");
    await expect(dialog).toContainText("192.168.3.66");
    await dialog.getByRole("button", { name: "Merge my changes onto theirs" }).click();
    // The dialog's own "Save mine over revision" button stays in the page until its closing animation ends.
    await expect(dialog).toBeHidden();
    await second.getByRole("button", { name: "Save" }).click();
    await expect(second.getByText("Revision 3", { exact: true })).toBeVisible();
    await other.close();

    const stored = await (await request.get(`/api/v1/rank-tables/${id}/export`)).text();
    expect(stored).toContain('"device_ip": "192.168.3.66"');
    expect(stored).toContain('"device_ip": "192.168.4.77"');
  });

  test("restoring a revision after someone else saved: the dialog offers the restored revision as mine, and overwriting stores it", async ({ page, request, baseURL }) => {
    const created = await request.post("/api/v1/rank-tables", {
      data: { name: `restore conflict ${Date.now()}`, text: await readFile(seedExample, "utf8") },
      headers: { origin: baseURL! },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    await page.goto(`/rank-tables/${id}`);
    await deviceIp(page, "node_2", "0").fill("192.168.3.66");
    await deviceIp(page, "node_2", "0").press("Enter");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Revision 2", { exact: true })).toBeVisible();

    // Someone else saves revision 3 while this editor still holds revision 2.
    const second = (await (await request.get(`/api/v1/rank-tables/${id}/export`)).text()).replace("192.168.3.66", "192.168.3.99");
    const third = await request.put(`/api/v1/rank-tables/${id}`, { data: { text: second }, headers: { origin: baseURL!, "if-match": '"2"' } });
    expect(third.status(), await third.text()).toBe(200);

    await page.getByRole("tab", { name: "Revisions" }).click();
    await page.getByRole("row", { name: /^#1 / }).getByRole("button", { name: "Restore" }).click();
    await page.locator(".ant-popover:visible").getByRole("button", { name: "Restore" }).click();
    const dialog = page.getByRole("dialog", { name: "Someone saved this table in the meantime" });
    await expect(dialog).toContainText("revision 1, which you are restoring");
    await expect(dialog).toContainText("192.168.3.99");
    await dialog.getByRole("button", { name: "Save mine over revision 3" }).click();
    await expect(page.getByText("Revision 4", { exact: true })).toBeVisible();

    const stored = await (await request.get(`/api/v1/rank-tables/${id}/export`)).text();
    expect(stored).not.toContain("192.168.3.66");
    expect(stored).not.toContain("192.168.3.99");
    expect(stored).toBe(await (await request.get(`/api/v1/rank-tables/${id}/export?format=json&revision=1`)).text());
  });
});

test.describe("Rank table workspace (viewer)", () => {
  test("a viewer checks a file without saving, in the UI language", async ({ page }) => {
    await page.goto("/rank-tables");
    await page.getByRole("link", { name: "Check a rank table" }).click();
    await page.getByText("中文", { exact: true }).click();
    await page.getByRole("textbox", { name: "Rank table 文本" }).fill('{"status":"completed","version":"1.0","server_list":[]}');
    await page.getByRole("button", { name: "在编辑器中打开" }).click();
    await expect(page.getByRole("status", { name: "校验报告" })).toContainText("HCCL 会拒绝此文件");
    await expect(page.getByRole("row", { name: /RT017/ })).toContainText("server_list");
    await expect(page.getByRole("button", { name: "保存" })).toHaveCount(0);
  });
});
