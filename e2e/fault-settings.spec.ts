import { expect, test, type Page } from "@playwright/test";
import { storageStateOf } from "./accounts";

// The A2 demo cluster, so the other specs (which read the first cluster's rules) keep MindCluster's defaults.
const settingsUrl = "/faults/settings?cluster=atlas-a2-demo";
const faultTimeout = (page: Page) => page.getByRole("group", { name: "Long-fault rule 1" }).getByLabel("Fault timeout");

test.describe("fault escalation settings as an editor", () => {
  test.use({ storageState: storageStateOf("editor") });

  test("changes the fault timeout: refused out of range, saved, kept after a reload, and shown in the rules", async ({ page }) => {
    await page.goto("/faults?cluster=atlas-a2-demo");
    await page.getByRole("link", { name: "Escalation settings" }).click();
    await expect(page).toHaveURL(/\/faults\/settings\?cluster=atlas-a2-demo/);
    await expect(page.getByText("MindCluster defaults")).toBeVisible();
    await expect(faultTimeout(page)).toHaveValue("20");

    await faultTimeout(page).fill("601");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Fault timeout: at most 600.")).toBeVisible();

    await faultTimeout(page).fill("35");
    await expect(page.getByRole("radio", { name: "Delete" })).toBeChecked();
    await page.getByRole("radio", { name: "Archive" }).check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved. The rules apply to events judged from now on.")).toBeVisible();
    await expect(page.getByText("Changed for this cluster")).toBeVisible();

    await page.reload();
    await expect(faultTimeout(page)).toHaveValue("35");
    await expect(page.getByRole("radio", { name: "Archive" })).toBeChecked();

    await page.goto("/faults?cluster=atlas-a2-demo&tab=reference");
    const rules = page.getByRole("region", { name: /escalation/ });
    await expect(rules).toContainText("at most 35 s");
    await expect(rules).toContainText("settings of this cluster");
  });
});

test.describe("fault escalation settings as a viewer", () => {
  test.use({ storageState: storageStateOf("viewer") });

  test("shows the saved values read-only, and the API refuses a change", async ({ page, baseURL }) => {
    await page.goto(settingsUrl);
    await expect(page.getByText("changing them needs the editor role")).toBeVisible();
    await expect(faultTimeout(page)).toHaveValue("35");
    await expect(faultTimeout(page)).toBeDisabled();
    await expect(page.getByRole("radio", { name: "Archive" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "Archive" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);

    const current = await (await page.request.get(`/api/v1/fault-events/settings?cluster=atlas-a2-demo`)).json();
    const response = await page.request.put(`/api/v1/fault-events/settings?cluster=atlas-a2-demo`, {
      data: { escalation: current.escalation, retentionDays: current.retentionDays },
      headers: { origin: baseURL!, "if-match": `"${current.version}"` },
    });
    expect(response.status()).toBe(403);
  });
});
