/**
 * Golden output of `rankscope validate --format json` and `rankscope fix` on the layouts beyond "1.0"/"1.2": real
 * legacy tables, HCCL's "2.0" examples and files that are not HCCL rank tables (fixtures/SOURCES.md says where each
 * comes from). The golden files are the reports as a user sees them; a change to them is a change of verdict.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateRankTable } from "../../lib/rank-table";
import { rankscope } from "../../test/cli";

const fixture = (name: string) => readFile(fileURLToPath(new URL(`../../lib/rank-table/fixtures/${name}`, import.meta.url)), "utf8");

const GOLDEN: [fixture: string, status: number][] = [
  ["legacy-tensorflow-8p.json", 0],
  ["legacy-mindspore-8p.json", 0],
  ["legacy-reference-template2.jsonc", 0],
  ["a5-reference-4p.jsonc", 0],
  ["a5-reference-eid.jsonc", 0],
  ["llm-datadist-pd.json", 1],
];

describe("rankscope validate --format json on other layouts", () => {
  it.each(GOLDEN)("%s", async (name, status) => {
    const result = await rankscope(["validate", "--format", "json", name], { [name]: await fixture(name) });
    expect(result.status).toBe(status);
    await expect(result.stdout).toMatchFileSnapshot(`./golden/${name.replace(/\.jsonc?$/, "")}.report.json`);
  });
});

describe("rankscope validate (text) on other layouts", () => {
  it("names the layout in the summary line", async () => {
    const pd = await rankscope(["validate", "pd.json"], { "pd.json": await fixture("llm-datadist-pd.json") });
    expect(pd.stdout).toContain("pd.json: invalid: 1 error, 0 warnings, 0 info; version 1.2 (llm-datadist), ai-server, 0 super pods, 1 server, 2 devices\n");
    const a5 = await rankscope(["validate", "a5.json"], { "a5.json": await fixture("a5-reference-4p.jsonc") });
    expect(a5.stdout).toContain("a5.json: valid: 0 errors, 0 warnings, 1 info; version 2.0, super-pod, 1 super pod, 2 servers, 4 devices\n");
  });
});

describe("rankscope fix on a legacy table", () => {
  it("converts it to 1.0 with explicit ranks, which validates clean", async () => {
    const result = await rankscope(["fix", "hccl.json", "--convert-legacy"], { "hccl.json": await fixture("legacy-tensorflow-8p.json") });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('hccl.json: /version: (absent) -> "1.0"\n');
    expect(result.stderr).toContain('hccl.json: /server_list/0/device/7/rank_id: (absent) -> "7"\n');
    expect(validateRankTable(result.stdout)).toMatchObject({ valid: true, version: "1.0", issues: [], stats: { servers: 1, devices: 8 } });
  });

  it("converts first when another repair is asked for", async () => {
    const result = await rankscope(["fix", "hccl.json", "--renumber"], { "hccl.json": await fixture("legacy-reference-template2.jsonc") });
    expect(validateRankTable(result.stdout)).toMatchObject({ valid: true, version: "1.0", stats: { servers: 2, devices: 2 } });
  });
});

describe("rankscope fix on a 2.0 table", () => {
  /** HCCL's 4-NPU example as hand-edited tables come: numbers as strings, a stale rank_count, rank_ids out of order. */
  const broken = async () =>
    (await fixture("a5-reference-4p.jsonc"))
      .replace('"rank_count": 4', '"rank_count": "5"')
      .replace('"rank_id": 0', '"rank_id": "3"')
      .replace('"device_id": 0', '"device_id": "0"')
      .replace('"net_layer": 1', '"net_layer": "1"');

  it("applies the editor's repairs (A5_REPAIRS), numbers first, and the result validates clean", async () => {
    const text = await broken();
    expect(validateRankTable(text).issues.map((issue) => issue.code)).toEqual(expect.arrayContaining(["RT103", "RT101", "RT106"]));
    const result = await rankscope(["fix", "a5.json", "--renumber", "--rank-count", "--numbers"], { "a5.json": text });
    expect(result.status).toBe(0);
    await expect(result.stderr).toMatchFileSnapshot("./golden/a5-fix.stderr.txt");
    expect(validateRankTable(result.stdout)).toMatchObject({ valid: true, version: "2.0", issues: [], stats: { servers: 2, devices: 4 } });
    expect((JSON.parse(result.stdout) as { rank_list: { rank_id: unknown }[] }).rank_list.map((rank) => rank.rank_id)).toEqual([0, 1, 2, 3]);
  });

  it("applies only the repairs asked for", async () => {
    const result = await rankscope(["fix", "a5.json", "--numbers"], { "a5.json": await broken() });
    expect(result.status).toBe(1);
    await expect(result.stderr).toMatchFileSnapshot("./golden/a5-fix-numbers.stderr.txt");
  });

  it("refuses the 1.x repairs on a 2.0 table and the 2.0 ones on a 1.x table", async () => {
    const a5 = await rankscope(["fix", "a5.json", "--pair-backups"], { "a5.json": await broken() });
    expect(a5).toMatchObject({ status: 2, stdout: "" });
    expect(a5.stderr).toContain("--pair-backups does not apply to version 2.0");
    const legacy = await rankscope(["fix", "hccl.json", "--rank-count"], { "hccl.json": await fixture("legacy-tensorflow-8p.json") });
    expect(legacy).toMatchObject({ status: 2, stdout: "" });
    expect(legacy.stderr).toContain("--rank-count does not apply to a 1.x or legacy table");
  });
});

describe("rankscope generate --version 2.0", () => {
  it("writes a SuperPoD of N racks that validates clean, numbers as numbers", async () => {
    const result = await rankscope(["generate", "--version", "2.0", "--racks", "2", "--npus", "4"]);
    expect(result).toMatchObject({ status: 0, stderr: "" });
    const report = validateRankTable(result.stdout);
    expect(report).toMatchObject({ valid: true, version: "2.0", stats: { servers: 2, devices: 8 }, issues: [] });
    const table = JSON.parse(result.stdout) as { rank_count: unknown; rank_list: unknown[] };
    expect(table.rank_count).toBe(8);
    expect(table.rank_list[5]).toMatchObject({ rank_id: 5, local_id: 1, device_id: 1 });
  });

  it("refuses the 1.x options", async () => {
    const result = await rankscope(["generate", "--version", "2.0", "--dies", "2"]);
    expect(result).toMatchObject({ status: 2 });
    expect(result.stderr).toContain("--dies does not apply to version 2.0");
  });
});
