import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";

const details = (page: Page) => page.getByRole("region", { name: "Details" });
const graph = (page: Page) => page.getByRole("region", { name: "Topology graph" }).locator('[data-drawn="true"]');
/** The graph's code loads in steps after hydration (client.tsx): on a loaded machine the first draw takes a while. */
const drawn = (page: Page) => expect(graph(page)).toBeVisible({ timeout: 45_000 });
const sel = (value: string) => encodeURIComponent(value);

/**
 * Two 灵衢 switch faults of sp1-node07, as the device plugin writes them (lib/faults/fixtures, both NotHandle: amber):
 * chip 1 port 12 towards a bus switch (PeerPortDevice 2, `L2`: one of the chip's uplinks into plane 1), and chip 2
 * port 12 towards NPU 6 (`npu`: that NPU's link into the chip). The first degrades plane 1 for the whole pod; the
 * second only sp1-node07's attachment (db/queries/faults/health.ts says why).
 */
async function postSwitchFaults(page: Page, baseURL: string) {
  const configMap = JSON.parse(await readFile("lib/faults/fixtures/device-info-a3-switch-configmap.json", "utf8")) as { metadata: { name: string }; data: Record<string, string> };
  configMap.metadata.name = "mindx-dl-deviceinfo-sp1-node07";
  const switchInfo = JSON.parse(configMap.data.SwitchInfoCfg!) as { FaultCode: string[]; FaultTimeAndLevelMap: Record<string, { fault_time: number; fault_level: string }> };
  const npuPort = JSON.parse(switchInfo.FaultCode.find((f) => (JSON.parse(f) as { SwitchChipId: number }).SwitchChipId === 1)!) as Record<string, unknown>;
  const uplink = { ...npuPort, AssembledFaultCode: "[0x08520003,155649,L2,na]", PeerPortDevice: 2, PeerPortId: 3 };
  const towardsNpu = { ...npuPort, SwitchChipId: 2, EventSerialNum: 313 };
  switchInfo.FaultCode = [JSON.stringify(uplink), JSON.stringify(towardsNpu)];
  const level = { fault_time: 1744182110456, fault_level: "NotHandle" };
  switchInfo.FaultTimeAndLevelMap = { "[0x08520003,155649,L2,na]_1_12": level, "[0x08520003,155649,npu,na]_2_12": level };
  configMap.data.SwitchInfoCfg = JSON.stringify(switchInfo);
  const posted = await page.request.post("/api/v1/fault-events/device-info?cluster=atlas-a3-demo", {
    headers: { origin: baseURL, "content-type": "application/json" },
    data: JSON.stringify(configMap),
  });
  expect(posted.status(), await posted.text()).toBe(200);
}

test.describe.serial("The fabric of a super pod", () => {
  test.use({ storageState: "e2e/.auth/editor.json" });

  test("an uplink fault on switch chip 1 of one server turns bus plane 1 of its super pod amber, for the whole pod; an NPU-facing port does not", async ({ page, baseURL }, testInfo) => {
    await postSwitchFaults(page, baseURL!);

    // The super pod is drawn with its 7 planes of 8 switches, not an HCCS ring; plane 1 selected from the URL.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=superpod&id=1&sel=${sel("plane:pod:1/ub:1")}`);
    await expect(page.getByTestId("view-summary")).toHaveText("Super pod · 768 dies · 7 bus planes of 56 switches");
    await drawn(page);
    const panel = details(page);
    await expect(panel.getByRole("row", { name: /Health\s*Degraded/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Bus switches\s*8/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Uplinks \(optical ports\)\s*384/ })).toBeVisible();
    await expect(panel.getByTestId("plane-reach")).toContainText("the bus is degraded for all 48 servers of super pod 1");
    await expect(panel.getByText("sp1-node07 · switch chip 1")).toBeVisible();
    await testInfo.attach("super pod with bus planes", { body: await page.screenshot(), contentType: "image/png" });

    // Chip 2's fault faces NPU 6: its plane stays healthy for the pod.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=superpod&id=1&sel=${sel("plane:pod:1/ub:2")}`);
    await expect(details(page).getByRole("row", { name: /Health\s*Healthy/ })).toBeVisible();
    await expect(details(page).getByTestId("plane-reach")).toContainText("a fault on it degrades the bus of all 48 servers, not one");
  });

  test("a switch's details say what its failure takes down, and one click highlights it across the super pod", async ({ page }, testInfo) => {
    // The server view draws its node chips (chip k over plane k) and the parameter plane; chip 2 carries its fault.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=server&id=sp1-node07&sel=${sel("switch:server:sp1-node07/chip:2")}`);
    await drawn(page);
    const panel = details(page);
    await expect(panel.getByRole("row", { name: /Health\s*Degraded/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Plane\s*pod:1\/ub:2/ })).toBeVisible();
    await expect(panel.getByText("A fault on a port facing one NPU or CPU colours this chip and its server, not the plane")).toBeVisible();
    const impact = panel.getByTestId("switch-impact");
    await expect(impact).toContainText("1 server cut from plane 2 (16 dies");
    await expect(impact).toContainText("47 servers of super pod 1 with plane 2 degraded (752 dies)");
    await expect(impact.getByTestId("impact-servers")).toContainText("sp1-node07");
    await testInfo.attach("server with its node chips", { body: await page.screenshot(), contentType: "image/png" });

    await impact.getByRole("button", { name: "Highlight in the super pod" }).click();
    await expect(page).toHaveURL(/level=superpod&id=1&sel=switch%3Aserver%3Asp1-node07%2Fchip%3A2&hl=impact/);
    await drawn(page);
    await expect(details(page).getByTestId("switch-impact").getByRole("button", { name: "Clear the highlight" })).toBeVisible();
    await testInfo.attach("what chip 2 of sp1-node07 takes down", { body: await page.screenshot(), contentType: "image/png" });

    // A bus switch of a plane, from the plane's details: no server is cut, every server loses one uplink.
    await page.goto(`/topology?cluster=atlas-a3-demo&level=superpod&id=1&sel=${sel("plane:pod:1/ub:1")}`);
    await details(page).getByRole("link", { name: "Bus switch 1.5" }).click();
    await expect(page).toHaveURL(/sel=switch%3Apod%3A1%2Fub%3A1%2Fsw%3A5/);
    await expect(details(page).getByTestId("switch-impact")).toContainText("48 servers of super pod 1 with plane 1 degraded (768 dies)");
  });

  test("a die's plane ports: a bus port per plane through its node chip, its NPU's RoCE port, marked documented or assumed", async ({ page }, testInfo) => {
    await page.goto(`/topology?cluster=atlas-a3-demo&level=server&id=sp1-node07&sel=${sel("die:sp1-node07/d13")}`);
    const ports = details(page).getByTestId("plane-ports");
    await expect(ports.getByRole("listitem")).toHaveCount(8);
    await expect(ports.getByRole("listitem").first()).toContainText("plane 0 via chip 0: 1 link of the NPU's 2 × 400 G");
    await expect(ports.getByTestId("roce-port")).toContainText("Parameter plane: RoCE port 6 (400 G), shared by 2 dies of its NPU; shape unknown");
    await expect(ports.getByTestId("roce-port").locator('[data-provenance="assumed"]')).toHaveText("assumed");
    await ports.getByRole("button", { name: "Show them in the graph" }).click();
    await expect(page).toHaveURL(/hl=ports/);
    await drawn(page);
    await testInfo.attach("a die's plane ports", { body: await page.screenshot(), contentType: "image/png" });

    // The parameter plane's shape is unknown for the A3 profile: one dashed bar, said so, not a guess.
    await page.goto(`/topology?cluster=atlas-a3-demo&sel=${sel("plane:param")}`);
    await expect(details(page).getByRole("row", { name: /Shape\s*unknown/ })).toBeVisible();
    await expect(details(page).getByTestId("parameter-shape")).toContainText("does not know this network's leaf/spine shape");
  });

  test("the fault timeline has a lane for the fabric, opening into its bus planes", async ({ page }) => {
    await page.goto("/faults?cluster=atlas-a3-demo&from=1744180000000&to=1744190000000");
    const lanes = page.getByTestId("timeline-lanes");
    await expect(lanes.locator('[data-lane="fabric"]')).toHaveText(/^Fabric \(switches\) \([1-9]\d*\)$/);
    // The lane list is visually hidden (the canvas draws the lanes): opened from the keyboard, as a screen reader user would.
    await lanes.locator('[data-lane="fabric"]').getByRole("button").press("Enter");
    await expect(page).toHaveURL(/open=fabric/);
    await expect(lanes.locator('[data-lane="plane:pod:1/ub:1"]')).toHaveText(/^Bus plane pod:1\/ub:1 \([1-9]\d*\)$/);
    await expect(lanes.locator('[data-lane="plane:pod:1/ub:2"]')).toBeVisible();
  });

  test("in Chinese and the dark theme: the switch's blast radius and the die's plane ports", async ({ page }, testInfo) => {
    await page.goto(`/topology?cluster=atlas-a3-demo&level=server&id=sp1-node07&sel=${sel("switch:server:sp1-node07/chip:2")}`);
    await page.getByText("Dark", { exact: true }).click();
    await page.getByText("中文", { exact: true }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    const panel = page.getByRole("region", { name: "详情" });
    await expect(panel.getByTestId("switch-impact")).toContainText("1 台服务器与平面 2 断开");
    await expect(panel.getByTestId("switch-impact").getByRole("button", { name: "在超节点中高亮" })).toBeVisible();
    await testInfo.attach("switch impact, zh-CN dark", { body: await page.screenshot(), contentType: "image/png" });
    await page.goto(`/topology?cluster=atlas-a3-demo&level=server&id=sp1-node07&sel=${sel("die:sp1-node07/d13")}`);
    await expect(page.getByRole("region", { name: "详情" }).getByTestId("roce-port")).toContainText("参数面：RoCE 端口 6");
    await page.goto("/faults?cluster=atlas-a3-demo&from=1744180000000&to=1744190000000");
    await expect(page.getByTestId("timeline-lanes").locator('[data-lane="fabric"]')).toContainText("网络结构（交换机）");
    await page.getByText("English", { exact: true }).click();
    await page.getByText("Light", { exact: true }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  });
});
