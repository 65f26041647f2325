import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { generateFromTemplate } from "../lib/rank-table/generate";
import { writeRankTable } from "../lib/rank-table/write";
import { storageStateOf } from "./accounts";

/** A rank table of `servers` Atlas A3 servers (16 dies each), written to the test's output folder. */
async function tableFile(servers: number, path: string): Promise<string> {
  const table = generateFromTemplate({ superPods: servers / 32, serversPerSuperPod: 32, basePort: 16000 });
  await writeFile(path, writeRankTable(table as never));
  return path;
}

test.describe("Rank table import progress", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("a large import shows its stages; Cancel stops it and leaves the page as it was; the next import works", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    // 131,072 ranks (about 40 MB): long enough to be cancelled while the worker parses it.
    const huge = await tableFile(8192, testInfo.outputPath("ranks-131072.json"));
    const large = await tableFile(1024, testInfo.outputPath("ranks-16384.json"));

    await page.goto("/rank-tables/new");
    const pasted = page.getByRole("textbox", { name: "Rank table text" });
    await pasted.fill('{"status": "completed"');
    await page.locator('input[type="file"]').first().setInputFiles(huge);

    const progress = page.getByRole("region", { name: "Importing ranks-131072.json" });
    await expect(progress).toBeVisible();
    await expect(progress).toContainText("Reading the file");
    await expect(progress).toContainText("Parsing");
    await expect(progress).toContainText("Validating");
    await expect(progress).toContainText("Rendering");
    await progress.getByRole("button", { name: "Cancel" }).click();

    await expect(page.getByText("Import cancelled; nothing was changed.")).toBeVisible();
    await expect(progress).toHaveCount(0);
    await expect(pasted).toHaveValue('{"status": "completed"');
    await expect(page.getByRole("status", { name: "Validation report" })).toHaveCount(0);
    // Nothing the stopped import would have produced arrives later.
    await page.waitForTimeout(3000);
    await expect(page.getByRole("status", { name: "Validation report" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "device_ip of die 0 on node_0", exact: true })).toHaveCount(0);

    await page.locator('input[type="file"]').first().setInputFiles(large);
    await expect(page.getByRole("textbox", { name: "device_ip of die 0 on node_0", exact: true })).toHaveValue("10.0.0.0", { timeout: 60_000 });
    await expect(page.getByRole("status", { name: "Validation report" })).toContainText("Valid: HCCL accepts this table");
    await expect(page.getByRole("region", { name: /^Importing/ })).toHaveCount(0);

    // Edits are checked by the worker the import left behind.
    const field = page.getByRole("textbox", { name: "device_ip of die 1 on node_0", exact: true });
    await field.fill("10.0.0.0");
    await field.press("Enter");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("status", { name: "Validation report" })).toContainText("HCCL would reject this table");
  });
});
