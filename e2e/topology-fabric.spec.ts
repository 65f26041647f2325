import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";

const details = (page: import("@playwright/test").Page) => page.getByRole("region", { name: "Details" });

test.describe("Bus planes of a super pod", () => {
  test.use({ storageState: "e2e/.auth/editor.json" });

  test("a SwitchInfoCfg fault on switch chip 1 of one server turns bus plane 1 of its super pod amber, for the whole pod", async ({ page, baseURL }, testInfo) => {
    // The A3 device-info fixture (lib/faults/fixtures), as the device plugin writes it for sp1-node07, keeping only the
    // NotHandle fault of chip 1 (port 12, towards NPU 6): NotHandleFault is amber (lib/faults/levels.ts).
    const configMap = JSON.parse(await readFile("lib/faults/fixtures/device-info-a3-switch-configmap.json", "utf8")) as { metadata: { name: string }; data: Record<string, string> };
    configMap.metadata.name = "mindx-dl-deviceinfo-sp1-node07";
    const switchInfo = JSON.parse(configMap.data.SwitchInfoCfg!) as { FaultCode: string[] };
    switchInfo.FaultCode = switchInfo.FaultCode.filter((fault) => (JSON.parse(fault) as { SwitchChipId: number }).SwitchChipId === 1);
    configMap.data.SwitchInfoCfg = JSON.stringify(switchInfo);
    const posted = await page.request.post("/api/v1/fault-events/device-info?cluster=atlas-a3-demo", {
      headers: { origin: baseURL!, "content-type": "application/json" },
      data: JSON.stringify(configMap),
    });
    expect(posted.status(), await posted.text()).toBe(200);

    // The super pod is drawn with its 7 planes of 8 switches, not an HCCS ring; plane 1 selected from the URL.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=superpod&id=1&sel=${encodeURIComponent("plane:pod:1/ub:1")}`);
    await expect(page.getByTestId("view-summary")).toHaveText("Super pod · 768 dies · 7 bus planes of 56 switches");
    await expect(page.getByRole("region", { name: "Topology graph" }).locator('[data-drawn="true"]')).toBeVisible();
    const panel = details(page);
    await expect(panel.getByRole("row", { name: /Health\s*Degraded/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Bus switches\s*8/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Uplinks \(optical ports\)\s*384/ })).toBeVisible();
    await expect(panel.getByTestId("plane-reach")).toContainText("the bus is degraded for all 48 servers of super pod 1");
    await expect(panel.getByText("sp1-node07 · switch chip 1")).toBeVisible();
    await testInfo.attach("super pod with bus planes", { body: await page.screenshot(), contentType: "image/png" });

    // The other planes stay healthy.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=superpod&id=1&sel=${encodeURIComponent("plane:pod:1/ub:2")}`);
    await expect(details(page).getByRole("row", { name: /Health\s*Healthy/ })).toBeVisible();
    await expect(details(page).getByTestId("plane-reach")).toContainText("a fault on it degrades the bus of all 48 servers, not one");
  });
});
