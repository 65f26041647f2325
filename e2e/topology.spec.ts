import { expect, test, type Page, type TestInfo } from "@playwright/test";

const graph = (page: Page) => page.getByRole("region", { name: "Topology graph" });
const summary = (page: Page) => page.getByTestId("view-summary");
const details = (page: Page) => page.getByRole("region", { name: "Details" });

/** Waits until the canvas has drawn the current view completely, then keeps a screenshot of the page for review. */
async function drawn(page: Page, testInfo: TestInfo, name: string) {
  await expect(graph(page).locator('[data-drawn="true"]')).toBeVisible();
  await testInfo.attach(name, { body: await page.screenshot(), contentType: "image/png" });
}

/** The first and the last pixel (top left, bottom right) of the backup rails' colour (#c41d7f) on the canvases. */
async function railPixels(page: Page): Promise<{ x: number; y: number }[]> {
  return graph(page)
    .locator("canvas")
    .evaluateAll((canvases: HTMLCanvasElement[]) =>
      canvases.flatMap((canvas) => {
        const { width, height } = canvas;
        const pixels = canvas.getContext("2d")!.getImageData(0, 0, width, height).data;
        const box = canvas.getBoundingClientRect();
        const found: { x: number; y: number }[] = [];
        for (let i = 0; i < pixels.length; i += 4) {
          const [r, g, b, a] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
          if (a < 200 || Math.abs(r - 0xc4) > 4 || Math.abs(g - 0x1d) > 4 || Math.abs(b - 0x7f) > 4) continue;
          const pixel = i / 4;
          found.push({ x: box.left + ((pixel % width) * box.width) / width, y: box.top + (Math.floor(pixel / width) * box.height) / height });
        }
        return found.length ? [found[0]!, found.at(-1)!] : [];
      }),
    );
}

test.describe("Topology", () => {
  test("opens the demo cluster, drills down to a server and sees its 16 dies and 8 backup-rail links", async ({ page }, testInfo) => {
    await page.goto("/");
    await page
      .getByRole("region", { name: "Atlas 900 A3 SuperPoD (demo)" })
      .getByRole("link", { name: /Open topology/ })
      .click();
    await expect(page).toHaveURL(/\/topology\?cluster=atlas-a3-demo$/);
    await expect(page.getByRole("heading", { level: 1, name: "Topology" })).toBeVisible();
    await expect(page.getByText("2 super pods · 96 servers · 768 NPUs · 1,536 dies")).toBeVisible();
    await expect(summary(page)).toHaveText("Cluster · parameter plane, shape unknown");
    await drawn(page, testInfo, "cluster view");

    // A click on the canvas selects what is under the pointer (a super pod or one of its servers).
    const box = (await graph(page).locator("canvas").first().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.22, box.y + box.height * 0.5);
    await expect(page).toHaveURL(/sel=(superpod|server)%3A/);
    await expect(details(page).getByText("Health", { exact: true })).toBeVisible();

    // Into super pod 0 from the breadcrumb-free path: search its server, then open the server from the details.
    await page.getByRole("combobox", { name: "Search the topology" }).fill("sp0-node05");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/level=superpod&id=0&sel=server%3Asp0-node05/);
    await expect(summary(page)).toHaveText("Super pod · 768 dies · 7 bus planes of 56 switches");
    await drawn(page, testInfo, "super pod view");

    await details(page).getByRole("button", { name: "Open this server" }).click();
    await expect(page).toHaveURL(/level=server&id=sp0-node05/);
    await expect(summary(page)).toHaveText("Server · 16 dies · 7 bus planes of 56 switches · parameter plane, shape unknown · 8 links: Backup rail (borrowed NIC)");
    const dies = page.getByRole("region", { name: "Dies of this server" });
    await expect(dies.getByRole("row")).toHaveCount(17);
    await expect(dies.getByRole("row", { name: /^1\s+2\s+0\s+82\s+192\.168\.6\.8:16666\s+192\.168\.6\.9:16667/ })).toBeVisible();
    await drawn(page, testInfo, "server view");

    // Each kind's links are one path on the canvas: hovering a rail names its two dies (the tooltip finds the link
    // under the pointer), the first rail and the last two different pairs, and a point beside a rail names none.
    const rails = await railPixels(page);
    expect(rails).toHaveLength(2);
    const railTooltip = graph(page).getByText(/^Backup rail \(borrowed NIC\): sp0-node05\/d\d+ ↔ sp0-node05\/d\d+$/);
    const named: string[] = [];
    for (const rail of rails) {
      await page.mouse.move(rail.x, rail.y);
      await expect(railTooltip).toBeVisible();
      named.push(await railTooltip.innerText());
    }
    expect(named[0]).not.toBe(named[1]);
    await page.mouse.move(rails[0]!.x, rails[0]!.y - 40);
    await expect(railTooltip).toBeHidden();

    // Back goes up one level again: every view is in the URL.
    await page.goBack();
    await expect(summary(page)).toHaveText("Super pod · 768 dies · 7 bus planes of 56 switches");
    await page.getByRole("navigation", { name: "Topology path" }).getByRole("link", { name: "Atlas 900 A3 SuperPoD (demo)" }).click();
    await expect(summary(page)).toHaveText("Cluster · parameter plane, shape unknown");
  });

  test("the next server opened lists its dies once its own graph is drawn, not while it is drawn", async ({ page }) => {
    await page.goto("/topology?cluster=atlas-a3-demo&level=server&id=sp1-node01");
    const dies = page.getByRole("region", { name: "Dies of this server" });
    await expect(dies.getByRole("row")).toHaveCount(17);
    // From now on: how many drawings the page had marked when a die list other than this server's was first shown.
    await page.evaluate(() => {
      const w = window as typeof window & { drawingsWhenListed?: number };
      const listed = () => document.querySelector('section[aria-label="Dies of this server"]')?.textContent ?? null;
      const first = listed();
      new MutationObserver((_, observer) => {
        const now = listed();
        if (now === null || now === first) return;
        w.drawingsWhenListed = performance.getEntriesByName("topology:drawn").length;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // Rank 800 of the table built from the inventory is on the next server, sp1-node02 (see the search's test).
    await page.getByRole("combobox", { name: "Search in" }).click();
    await page.locator(".ant-select-item-option[title='Rank']").click();
    const search = page.getByRole("combobox", { name: "Search the topology" });
    await search.fill("800");
    await search.press("Enter");
    await expect(page).toHaveURL(/level=server&id=sp1-node02/);
    await expect(dies.getByRole("row", { name: /192\.168\.51\.6:16666/ })).toBeVisible();
    await expect(dies.getByRole("row")).toHaveCount(17);
    // The first server's drawing and the second's: the list waited for the second.
    expect(await page.evaluate(() => (window as typeof window & { drawingsWhenListed?: number }).drawingsWhenListed)).toBe(2);
  });

  test("a neighbourhood's dies come a page at a time; a link to a die opens the page that lists it", async ({ page }) => {
    await page.goto("/topology?cluster=atlas-a3-demo&level=server&id=sp1-node05&hops=1");
    const dies = page.getByRole("region", { name: "Dies of this server" });
    const rows = dies.locator("tbody tr.ant-table-row");
    await expect(rows).toHaveCount(32);
    const total = Number(await dies.locator(".ant-tag").innerText());
    expect(total).toBeGreaterThan(32);
    await expect(summary(page)).toContainText(`${total} dies`);

    // A die of the second page, selected there, then opened by its link: the table opens on its page, the row marked.
    const activePage = dies.locator(".ant-pagination-item-active");
    await dies.getByRole("listitem", { name: "2" }).click();
    await expect(activePage).toHaveText("2");
    const second = rows.nth(5);
    const deviceIp = (await second.locator("td").nth(4).innerText()).trim();
    await second.click();
    await expect(page).toHaveURL(/sel=die%3A/);
    await page.reload();
    await expect(dies.locator("tbody tr.ant-table-row-selected")).toContainText(deviceIp);
    await expect(activePage).toHaveText("2");
  });

  test("the die table keeps the page size chosen for the next server opened", async ({ page }) => {
    await page.goto("/topology?cluster=atlas-a3-demo&level=server&id=sp1-node05&hops=1");
    const dies = page.getByRole("region", { name: "Dies of this server" });
    const rows = dies.locator("tbody tr.ant-table-row");
    await expect(rows).toHaveCount(32);
    await dies.locator(".ant-pagination-options .ant-select").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "64 / page" }).click();
    await expect(rows).toHaveCount(Math.min(64, Number(await dies.locator(".ant-tag").innerText())));

    // Another server, found by search and opened: the table is made anew, with 64 a page (its 16 dies on one).
    const search = page.getByRole("combobox", { name: "Search the topology" });
    await search.fill("sp1-node06");
    await search.press("Enter");
    await details(page).getByRole("button", { name: "Open this server" }).click();
    await expect(page).toHaveURL(/level=server&id=sp1-node06/);
    await expect(summary(page)).toHaveText(/^Server · 16 dies/);
    await expect(dies.locator(".ant-pagination-options")).toContainText("64 / page");
    await expect(rows).toHaveCount(16);
  });

  test("finds a die by device IP and by rank, lands on it, and the link opens the same selection", async ({ page }, testInfo) => {
    await page.goto("/topology?cluster=atlas-a3-demo");
    const search = page.getByRole("combobox", { name: "Search the topology" });
    await search.fill("192.168.50.9");
    await search.press("Enter");
    await expect(page).toHaveURL(/level=server&id=sp1-node01&sel=die%3Asp1-node01%2Fd3/);
    await expect(summary(page)).toHaveText("Server · 16 dies · 7 bus planes of 56 switches · parameter plane, shape unknown · 8 links: Backup rail (borrowed NIC)");
    const panel = details(page);
    await expect(panel.getByRole("row", { name: /Device IP\s*192\.168\.50\.9/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Backup device IP\s*192\.168\.50\.8/ })).toBeVisible();
    await expect(panel.getByRole("row", { name: /Super device id\s*19/ })).toBeVisible();
    await expect(panel.getByText("Built from the inventory")).toBeVisible();
    await expect(panel.getByText("Backup rail (borrowed NIC)")).toBeVisible();
    await expect(panel.getByRole("link", { name: "sp1-node01 · die 2" })).toBeVisible();
    await expect(panel.getByRole("region", { name: "Recent faults" })).toBeVisible();
    await expect(panel.getByText("No fault data yet")).toHaveCount(0);
    await drawn(page, testInfo, "die found by device IP");

    // The URL alone reopens the same view and selection.
    await page.reload();
    await expect(details(page).getByRole("row", { name: /Device IP\s*192\.168\.50\.9/ })).toBeVisible();

    // By rank: rank 800 of the table built from the inventory is server 51 (sp1-node02), device 0.
    await page.getByRole("combobox", { name: "Search in" }).click();
    await page.locator(".ant-select-item-option[title='Rank']").click();
    await search.fill("800");
    await search.press("Enter");
    await expect(page).toHaveURL(/id=sp1-node02&sel=die%3Asp1-node02%2Fd0/);
    await expect(details(page).getByRole("row", { name: /Device IP\s*192\.168\.51\.6/ })).toBeVisible();
    await expect(page.getByText("Nothing matches")).toHaveCount(0);
  });

  // The A2 demo's fault data is the HCCL error its failed demo job's diagnosis recorded (rank 11, a2-node1 die 3):
  // once a cluster has fault events, the legend drops its "unknown everywhere" note and a die without faults is healthy.
  test("with the demo job's HCCL error collected, the legend keeps its colours but not the 'unknown' note, a die without faults is healthy, and Esc clears the selection", async ({ page }) => {
    await page.goto("/topology?cluster=atlas-a2-demo&level=server&id=a2-node1&sel=die%3Aa2-node1%2Fd4");
    await expect(summary(page)).toHaveText("Server · 8 dies · parameter plane, shape unknown · 28 links: HCCS plane");
    const legend = page.getByRole("group", { name: "Legend" });
    await expect(legend).toContainText("Unknown");
    await expect(legend).toContainText("Backup rail (borrowed NIC)");
    await expect(details(page).getByRole("row", { name: /Health\s*Healthy/ })).toBeVisible();
    await expect(legend).not.toContainText("Health is unknown everywhere until fault events are collected");
    await page.locator("body").press("Escape");
    await expect(page).not.toHaveURL(/sel=/);
    await expect(details(page)).toHaveCount(0);
  });

  test("a die the demo fault day hit lists its recent faults, and the link opens the same events on the fault timeline", async ({ page }, testInfo) => {
    // The simulated day's leaf switch failure took rail 7 (device 7) of every server of super pod 1 down for 4 minutes.
    await page.goto("/topology?cluster=atlas-a3-demo&level=server&id=sp1-node05");
    await page.getByRole("region", { name: "Dies of this server" }).getByRole("row", { name: /^3\s+7\s+1\s/ }).click();
    await expect(page).toHaveURL(/sel=die%3Asp1-node05%2Fd7/);
    const faults = details(page).getByRole("region", { name: "Recent faults" });
    const summaryText = faults.getByTestId("recent-fault-summary");
    await expect(summaryText).toHaveText(/^[1-9]\d* events? in the last 7 days, /);
    const total = Number((await summaryText.textContent())!.match(/^(\d+)/)![1]);
    const switchDown = faults.getByRole("listitem").filter({ hasText: "RoCE link down" }).first();
    await expect(switchDown).toContainText("81078603");
    await expect(switchDown).toContainText(/NotHandleFault|PreSeparateNPU|SeparateNPU/);
    await expect(switchDown).toContainText(/ → .+ · \d+ (min|s)/);
    await faults.scrollIntoViewIfNeeded();
    await drawn(page, testInfo, "recent faults of a die");

    await faults.getByRole("link", { name: "Open in the fault timeline" }).click();
    await expect(page).toHaveURL(/\/faults\?cluster=atlas-a3-demo&from=\d+&target=sp1-node05%2F7&open=pod%3A1%2Cserver%3Asp1-node05$/);
    await expect(page.getByTestId("fault-total")).toHaveText(`${total} of ${total} events`);
    const table = page.getByTestId("fault-events-table");
    await expect(table).toContainText("RoCE link down");
    await expect(table).toContainText("sp1-node05 / 7");
    await testInfo.attach("fault timeline opened from the details", { body: await page.screenshot(), contentType: "image/png" });
  });

  test("the API answers the view with an ETag, then 304", async ({ request }) => {
    const first = await request.get("/api/v1/clusters/atlas-a3-demo/topology?level=server&id=sp0-node00");
    expect(first.status()).toBe(200);
    const body = await first.json();
    expect(body.nodes.filter((n: { kind: string }) => n.kind === "die")).toHaveLength(16);
    expect(body.links.filter((l: { kind: string }) => l.kind === "backup-rail")).toHaveLength(8);
    const again = await request.get("/api/v1/clusters/atlas-a3-demo/topology?level=server&id=sp0-node00", {
      headers: { "if-none-match": first.headers().etag! },
    });
    expect(again.status()).toBe(304);
  });
});
