import { expect, test } from "@playwright/test";

test("the Faults page explains levels, escalation and HCCL failure phases", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Faults" }).click();
  await expect(page).toHaveURL(/\/faults$/);
  // The reference sits in its own tab beside the timeline.
  await page.getByRole("tab", { name: "Reference" }).click();
  await expect(page).toHaveURL(/tab=reference/);
  const escalation = page.getByRole("region", { name: /escalation/ });
  await expect(escalation).toContainText("at most 20 s");
  await expect(escalation).toContainText("PreSeparateNPU");
  await expect(escalation).toContainText("5 times within 24 h");
  await expect(page.getByRole("region", { name: "Fault levels" }).getByRole("row")).toHaveCount(10);
  const phases = page.getByRole("region", { name: /HCCL failures by phase/ });
  await expect(phases.getByRole("row", { name: /Operator execution/ })).toContainText("EI0002");
});
