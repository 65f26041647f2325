/** `rankscope cluster add` against a real database: a generated rank table becomes a cluster of the inventory. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

describe("rankscope cluster add", () => {
  it("creates a cluster from a generated rank table, audited, and refuses the same slug again", async () => {
    const generated = await rankscope(["generate", "--super-pods", "2", "--servers", "3", "--version", "1.2"]);
    expect(generated.status, generated.stderr).toBe(0);
    const files = { "big.json": generated.stdout };
    const added = await rankscope(["cluster", "add", "cli-big", "--from", "big.json", "--name", "CLI big"], files);
    expect(added).toMatchObject({ status: 0, stdout: "created cluster cli-big (CLI big): 2 super pods, 6 servers, 96 dies\n" });

    const { pool } = testDatabase();
    const { rows } = await pool.query<{ name: string; dies: string; pods: string; rail: string }>(
      `select c.name, (select count(*) from devices d where d.cluster_id = c.id) as dies,
         (select count(*) from super_pods p where p.cluster_id = c.id) as pods,
         (select count(*) from links l where l.cluster_id = c.id and l.kind = 'backup-rail') as rail
       from clusters c where c.slug = 'cli-big'`,
    );
    expect(rows).toEqual([{ name: "CLI big", dies: "96", pods: "2", rail: "48" }]);
    const audit = await pool.query("select action, target_id from audit_log where action = 'cluster.create'");
    expect(audit.rows).toEqual([{ action: "cluster.create", target_id: "cli-big" }]);

    const again = await rankscope(["cluster", "add", "cli-big", "--from", "big.json"], files);
    expect(again).toMatchObject({ status: 1, stderr: "rankscope cluster: a cluster with the slug cli-big exists already\n" });
  });

  it("refuses a table with errors, naming them, and writes nothing", async () => {
    const table = JSON.stringify({ version: "1.0", server_count: "1", status: "completed", server_list: [{ server_id: "n1", device: [{ device_id: "0", device_ip: "10.0.0.1", rank_id: "0" }, { device_id: "1", device_ip: "10.0.0.1", rank_id: "1" }] }] });
    const refused = await rankscope(["cluster", "add", "cli-bad", "--from", "-"], {}, table);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^rankscope cluster: - cannot become an inventory: \d+ error finding\(s\)\n {2}RT\d+/);
    const { pool } = testDatabase();
    expect((await pool.query("select 1 from clusters where slug = 'cli-bad'")).rowCount).toBe(0);
  });

  it("removes a cluster only with --yes, after saying what it would delete, audited", async () => {
    const generated = await rankscope(["generate", "--super-pods", "1", "--servers", "2", "--version", "1.2"]);
    expect((await rankscope(["cluster", "add", "cli-doomed", "--from", "-"], {}, generated.stdout)).status).toBe(0);
    const { pool } = testDatabase();
    const present = async () => (await pool.query("select 1 from clusters where slug = 'cli-doomed'")).rowCount;

    const asked = await rankscope(["cluster", "remove", "cli-doomed"]);
    expect(asked).toMatchObject({
      status: 1,
      stderr: "rankscope cluster: removing would delete cluster cli-doomed with super pods 1, servers 2, dies 32, jobs 0, fault events 0 (saved rank tables kept without a cluster: 0). Run again with --yes to delete it.\n",
    });
    expect(await present()).toBe(1);

    const removed = await rankscope(["cluster", "remove", "cli-doomed", "--yes"]);
    expect(removed).toMatchObject({ status: 0, stdout: "removed cluster cli-doomed with super pods 1, servers 2, dies 32, jobs 0, fault events 0 (saved rank tables kept without a cluster: 0)\n" });
    expect(await present()).toBe(0);
    expect((await pool.query("select 1 from devices d where not exists (select 1 from clusters c where c.id = d.cluster_id)")).rowCount).toBe(0);
    expect((await pool.query("select target_id from audit_log where action = 'cluster.delete'")).rows).toEqual([{ target_id: "cli-doomed" }]);

    expect(await rankscope(["cluster", "remove", "cli-doomed", "--yes"])).toMatchObject({ status: 1, stderr: "rankscope cluster: there is no cluster cli-doomed\n" });
  });

  it("says what is wrong with the arguments", async () => {
    expect((await rankscope(["cluster", "add", "Bad Slug", "--from", "x.json"])).status).toBe(2);
    expect((await rankscope(["cluster", "add", "ok-slug"])).stderr).toContain("--from FILE is required");
    expect((await rankscope(["cluster", "add", "ok-slug", "--from", "missing.json"])).status).toBe(2);
    expect((await rankscope(["cluster", "drop", "ok-slug"])).stderr).toContain("the actions are add and remove");
  });
});
