/**
 * A "2.0" (Atlas 350/850/950) table in the editor: its rank_list in the grid, an edited field raising a finding on
 * the cell and in the problems and clearing it again, and the layout against a linked A2 cluster (CL001).
 */
import { expect, test, type Page } from "@playwright/test";
import { generateA5Table } from "../lib/rank-table/generate-a5";
import { writeRankTable } from "../lib/rank-table/write";
import { storageStateOf } from "./accounts";

const rankField = (page: Page, field: string, device: string, server: string) => page.getByRole("textbox", { name: `${field} of die ${device} on ${server}`, exact: true });

async function choose(page: Page, name: string, option: string) {
  await page.getByRole("combobox", { name, exact: true }).click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).click();
}

test.describe("Rank table workspace, version 2.0 (editor)", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("shows rank_list in the grid; an edited device_id raises RT110 on its cell and in the problems, and fixing it clears it; an A2 cluster gets CL001", async ({ page }) => {
    // Two validations and a cluster list on a shared 2-core machine: it ran 55 s of the default 60 under load 25.
    test.setTimeout(120_000);
    await page.goto("/rank-tables/new");
    await page.getByRole("textbox", { name: "Rank table text" }).fill(writeRankTable(generateA5Table({ racks: 2, npusPerRack: 4 })));
    await page.getByRole("button", { name: "Open in the editor" }).click();
    const report = page.getByRole("status", { name: "Validation report" });
    await expect(report).toContainText("Valid: HCCL accepts this table");

    // One row per rank, grouped by the net_layer 0 instance (its AI Server): local_id and device_id as written.
    const grid = page.getByRole("table", { name: "Dies" }).or(page.locator(".ant-table").first());
    await expect(grid.getByText("superpod0-rack1").first()).toBeVisible();
    const deviceId = rankField(page, "device_id", "2", "superpod0-rack1");
    await expect(deviceId).toHaveValue("2");
    await expect(rankField(page, "rank_id", "2", "superpod0-rack1")).toHaveValue("6");
    await expect(rankField(page, "local_id", "2", "superpod0-rack1")).toHaveValue("2");

    // device_id is [0, 64] in the A5 reference: 70 is RT110, on the cell and in the problems.
    await deviceId.fill("70");
    await deviceId.press("Enter");
    await expect(report).toContainText("1 error: HCCL would reject this table");
    const problems = page.locator("section[aria-labelledby=problems-heading]");
    const finding = problems.getByRole("row", { name: /RT110/ });
    await expect(finding).toContainText("/rank_list/6/device_id");
    const cell = rankField(page, "device_id", "70", "superpod0-rack1");
    await expect(cell).toHaveAttribute("aria-invalid", "true");

    await cell.fill("2");
    await cell.press("Enter");
    await expect(report).toContainText("Valid: HCCL accepts this table");
    await expect(problems.getByRole("row", { name: /RT110/ })).toHaveCount(0);
    await expect(rankField(page, "device_id", "2", "superpod0-rack1")).not.toHaveAttribute("aria-invalid", "true");

    // Linked to an Atlas A2 cluster, a 2.0 table is refused by HCCL there: CL001 under the report and in the problems.
    await choose(page, "Linked cluster", "Atlas 800T A2 training (demo)");
    await expect(page.getByRole("alert", { name: "Layout against the linked cluster's hardware" })).toContainText("EI0014");
    await expect(problems.getByRole("row", { name: /CL001/ })).toContainText("Atlas A2");
  });
});
