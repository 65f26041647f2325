import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";

const seedExample = "lib/rank-table/fixtures/seed-super-pod.jsonc";

test.describe("Rank table checker", () => {
  test("the reference's super pod example is valid; a duplicated device IP is an error at its line", async ({ page }) => {
    await page.goto("/rank-tables");
    await page.locator('input[type="file"]').setInputFiles(seedExample);
    const report = page.getByRole("region", { name: "Validation report" });
    await expect(report).toContainText("Valid: HCCL accepts this table");
    await expect(report).toContainText("Super pod mode");
    const problems = page.getByRole("region", { name: /problem/ });
    await expect(problems.getByRole("row", { name: /RT001/ })).toContainText("comment");

    const text = page.getByRole("textbox", { name: "Rank table text" });
    const original = await text.inputValue();
    await text.fill(original.replace('"device_ip": "192.168.2.6"', '"device_ip": "192.168.1.6"'));
    await expect(report).toContainText("1 error: HCCL would reject this table");
    const duplicate = problems.getByRole("row", { name: /RT036/ });
    await expect(duplicate).toContainText("/server_list/1/device/0/device_ip");
    await expect(duplicate).toContainText("192.168.1.6");
    await expect(duplicate).toContainText("/server_list/0/device/0");
    await expect(duplicate).toContainText("19:");

    await page.getByText("Errors (1)").click();
    await expect(page).toHaveURL(/severity=error/);
    await expect(problems.getByRole("row")).toHaveCount(2);
  });

  test("exports the canonical form, and asks before exporting a table with errors", async ({ page }) => {
    await page.goto("/rank-tables");
    const source = await readFile(seedExample, "utf8");
    const text = page.getByRole("textbox", { name: "Rank table text" });
    await text.fill(source.replace('"rank_id": "0"', '"rank_id": 0'));
    await expect(page.getByRole("region", { name: "Validation report" })).toContainText("1 error");
    await page.getByRole("button", { name: "Download canonical JSON" }).click();
    await expect(page.getByText("This table has 1 error.")).toBeVisible();
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export anyway" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("hccl.json");
    const exported = await readFile((await download.path())!, "utf8");
    expect(exported.startsWith('{\n  "status": "completed",\n  "version": "1.2",')).toBe(true);
    expect(exported).toContain('"rank_id": "0"');
    expect(exported).not.toContain("//");
    expect(exported.endsWith("}\n")).toBe(true);
  });

  test("messages follow the UI language", async ({ page }) => {
    await page.goto("/rank-tables");
    await page.getByText("中文", { exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Rank table" })).toBeVisible();
    await page.getByRole("textbox", { name: "Rank table 文本" }).fill('{"status":"completed","version":"1.0","server_list":[]}');
    await expect(page.getByRole("region", { name: "校验报告" })).toContainText("HCCL 会拒绝此文件");
    await expect(page.getByRole("row", { name: /RT017/ })).toContainText("server_list");
  });
});
