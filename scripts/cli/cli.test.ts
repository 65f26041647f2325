/** Golden output of the `rankscope` CLI, run in-process with captured output, plus a few real processes. */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { validateRankTable } from "../../lib/rank-table";
import { rankscope } from "../../test/cli";
import { COMMANDS } from "./index";
import { writeFileAtomically } from "./io";

const fixture = (name: string) => readFile(fileURLToPath(new URL(`../../lib/rank-table/fixtures/${name}`, import.meta.url)), "utf8");
const SUPER_POD = await fixture("seed-super-pod.jsonc");
const AI_SERVER = await fixture("seed-ai-server.jsonc");
/** The 1.0 example with node_1's first device given node_0's first device_ip. */
const DUPLICATE_IP = AI_SERVER.replace('"device_ip":"192.168.2.8"', '"device_ip":"192.168.1.8"');

describe("rankscope validate", () => {
  it("lists findings compiler-style with a summary, and exits 0 for valid tables", async () => {
    const result = await rankscope(["validate", "sp.json", "ai.json"], { "sp.json": SUPER_POD, "ai.json": AI_SERVER });
    expect(result.stdout).toBe(
      "sp.json:2:36: info RT001 9 comment(s) found; they are dropped on export\n"
        + "sp.json: valid: 0 errors, 0 warnings, 1 info; version 1.2, super-pod, 2 super pods, 4 servers, 16 devices\n"
        + "ai.json:2:29: info RT001 11 comment(s) found; they are dropped on export\n"
        + "ai.json: valid: 0 errors, 0 warnings, 1 info; version 1.0, ai-server, 0 super pods, 2 servers, 4 devices\n"
        + "2 files: 2 valid, 0 invalid\n",
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("exits 1 on an error and names the earlier place", async () => {
    const result = await rankscope(["validate", "hccl.json"], { "hccl.json": DUPLICATE_IP });
    expect(result.stdout).toBe(
      "hccl.json:2:29: info RT001 11 comment(s) found; they are dropped on export\n"
        + "hccl.json:33:21: error RT036 device_ip 192.168.1.8 is also used by /server_list/0/device/0\n"
        + "hccl.json: invalid: 1 error, 0 warnings, 1 info; version 1.0, ai-server, 0 super pods, 2 servers, 4 devices\n",
    );
    expect(result.status).toBe(1);
  });

  it("speaks Chinese with --lang zh, keeping codes and severities", async () => {
    const result = await rankscope(["validate", "--lang", "zh", "-"], {}, DUPLICATE_IP);
    expect(result.stdout).toContain("<stdin>:33:21: error RT036 device_ip 192.168.1.8 已被 /server_list/0/device/0 使用\n");
    expect(result.stdout).toContain("<stdin>: 无效: 1 个错误, 0 个警告, 1 条提示;");
  });

  it("prints the spec's report as JSON: one object, or an array naming each file", async () => {
    const one = await rankscope(["validate", "--format", "json", "hccl.json"], { "hccl.json": DUPLICATE_IP });
    expect(JSON.parse(one.stdout)).toEqual(validateRankTable(DUPLICATE_IP));
    expect(JSON.parse(one.stdout).issues[1]).toEqual({
      code: "RT036", severity: "error", path: "/server_list/1/device/0/device_ip",
      message: "device_ip 192.168.1.8 is also used by /server_list/0/device/0", line: 33, column: 21,
    });
    const two = await rankscope(["validate", "--format=json", "a.json", "b.json"], { "a.json": SUPER_POD, "b.json": "[]" });
    const reports = JSON.parse(two.stdout) as { file: string; valid: boolean }[];
    expect(reports.map((report) => [report.file, report.valid])).toEqual([["a.json", true], ["b.json", false]]);
    expect(two.status).toBe(1);
  });

  it("exits 2 when a file cannot be read, still checking the others", async () => {
    const result = await rankscope(["validate", "missing.json", "ai.json"], { "ai.json": AI_SERVER });
    expect(result.stderr).toBe("rankscope: cannot read missing.json: ENOENT: no such file or directory, open 'missing.json'\n");
    expect(result.stdout).toContain("ai.json: valid");
    expect(result.stdout).toContain("2 files: 1 valid, 0 invalid, 1 unreadable\n");
    expect(result.status).toBe(2);
  });

  it.each([
    [["validate"], "rankscope validate: no file given (use - for standard input)\n"],
    [["validate", "--format", "xml", "a"], 'rankscope validate: --format must be one of text, json, not "xml"\n'],
    [["validate", "--bogus", "a"], "rankscope validate: Unknown option '--bogus'"],
  ])("exits 2 on wrong arguments %j", async (argv, message) => {
    const result = await rankscope(argv);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Run "rankscope validate --help" for usage.');
    expect(result.status).toBe(2);
  });
});

describe("rankscope fmt", () => {
  it("prints the canonical form and notes dropped comments", async () => {
    const result = await rankscope(["fmt", "ai.json"], { "ai.json": AI_SERVER });
    expect(result.stdout).toMatch(/^\{\n {2}"status": "completed",\n {2}"version": "1.0",\n {2}"server_count": "2",\n/);
    expect(result.stderr).toBe("ai.json: 11 comment(s) dropped\n");
    expect(result.status).toBe(0);
    const again = await rankscope(["fmt", "--check", "canonical.json"], { "canonical.json": result.stdout });
    expect(again).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  it("--check exits 1 for text that is not canonical; --write replaces the file", async () => {
    const check = await rankscope(["fmt", "--check", "ai.json"], { "ai.json": AI_SERVER });
    expect(check).toMatchObject({ status: 1, stderr: "ai.json: not in canonical form (run rankscope fmt --write ai.json)\n" });
    const write = await rankscope(["fmt", "--write", "ai.json"], { "ai.json": AI_SERVER });
    expect(write.status).toBe(0);
    expect(validateRankTable(write.written.get("ai.json")!).issues).toEqual([]);
  });

  it("exits 1 with the RT000 finding for text that is not JSON", async () => {
    const result = await rankscope(["fmt", "bad.json"], { "bad.json": '{\n  "status": "completed",\n}' });
    expect(result).toMatchObject({ status: 1, stdout: "", stderr: "bad.json:3:1: error RT000 Not valid JSON: unexpected character } at line 3, column 1\n" });
  });
});

describe("rankscope fix", () => {
  it("applies the chosen repairs, lists the changes and the remaining findings", async () => {
    const broken = '{"status": "completed", "version": "1.0", "server_list": [{"server_id": "a", "device": [{"device_id": "1", "rank_id": 1}, {"device_id": "0", "rank_id": "5"}]}]}';
    const result = await rankscope(["fix", "t.json", "--renumber", "--server-count"], { "t.json": broken });
    expect(result.stderr).toBe(
      't.json: /server_count: (absent) -> "1"\n'
        + 't.json: /server_list/0/device/1/rank_id: "5" -> "0"\n'
        + 't.json: /server_list/0/device/0/rank_id: 1 -> "1"\n'
        + "t.json: 3 changes\n",
    );
    expect(validateRankTable(result.stdout).issues).toEqual([]);
    expect(result.status).toBe(0);
  });

  it("pairs backups and assigns ports in place", async () => {
    const broken = SUPER_POD.replace('"backup_device_ip":"192.168.1.7"', '"backup_device_ip":"192.168.1.9"').replace('"backup_device_port":"16670"', '"backup_device_port":"16668"');
    expect(validateRankTable(broken).valid).toBe(false);
    const result = await rankscope(["fix", "sp.json", "--pair-backups", "--ports", "20000", "--write"], { "sp.json": broken });
    expect(result.status).toBe(0);
    expect(validateRankTable(result.written.get("sp.json")!).issues).toEqual([]);
  });

  it("exits 2 without a repair or with ports that do not fit", async () => {
    expect((await rankscope(["fix", "sp.json"], { "sp.json": SUPER_POD })).stderr).toContain("choose at least one repair");
    const tooHigh = await rankscope(["fix", "sp.json", "--ports", "65530"], { "sp.json": SUPER_POD });
    expect(tooHigh).toMatchObject({ status: 2 });
    expect(tooHigh.stderr).toContain("do not fit below 65536");
  });
});

describe("rankscope generate", () => {
  it("generates a valid table from flags", async () => {
    const result = await rankscope(["generate", "--super-pods", "2", "--servers", "2", "--npus", "4", "--base-port", "16666"]);
    expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(validateRankTable(result.stdout)).toMatchObject({ valid: true, stats: { superPods: 2, servers: 4, devices: 32 }, issues: [] });
  });

  it("reads a YAML template, flags overriding it", async () => {
    const template = "version: '1.0'\nserversPerSuperPod: 3\nnpusPerServer: 2\ndiesPerNpu: 1\nserverId: 'host-{server+1}'\n";
    const result = await rankscope(["generate", "--template", "t.yaml", "--servers", "2", "--output", "out.json"], { "t.yaml": template });
    expect(result.status).toBe(0);
    const output = result.written.get("out.json")!;
    expect(validateRankTable(output)).toMatchObject({ valid: true, version: "1.0", stats: { servers: 2, devices: 4 } });
    expect(output).toContain('"server_id": "host-2"');
  });

  it("rejects a template with unknown or wrong fields", async () => {
    const result = await rankscope(["generate", "--template", "t.json"], { "t.json": '{"superPods": 0, "colour": "red"}' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("superPods:");
    expect(result.stderr).toContain("colour");
  });

  it("builds a table from a directory of hccn.conf files", async () => {
    const conf = (octet: number) => `address_0=192.168.${octet}.6\nnetmask_0=255.255.255.0\naddress_1=192.168.${octet}.7\n`;
    const files = { "confs/10.0.0.2.conf": conf(2), "confs/10.0.0.10.conf": conf(10), "hosts.txt": "# order\n10.0.0.10 10.0.0.10 0\n10.0.0.2 10.0.0.2 0\n" };
    const natural = await rankscope(["generate", "--hccn", "confs"], files);
    expect(natural.status).toBe(0);
    expect(JSON.parse(natural.stdout).server_list.map((server: { server_id: string }) => server.server_id)).toEqual(["10.0.0.2", "10.0.0.10"]);
    const ordered = await rankscope(["generate", "--hccn", "confs", "--hosts", "hosts.txt", "--version", "1.2"], files);
    expect(JSON.parse(ordered.stdout).server_list[0]).toMatchObject({ server_id: "10.0.0.10", host_ip: "10.0.0.10" });
    expect(validateRankTable(ordered.stdout)).toMatchObject({ valid: true, mode: "super-pod", issues: [] });
  });
});

describe("help", () => {
  it("lists the commands", async () => {
    const result = await rankscope(["--help"]);
    for (const command of COMMANDS) expect(result.stdout).toContain(`  ${command.name}`);
    expect(result.status).toBe(0);
  });

  it.each(COMMANDS.map((command) => command.name))("%s --help has usage and an example", async (name) => {
    const result = await rankscope([name, "--help"]);
    expect(result.stdout).toMatch(/^Usage: rankscope /);
    expect(result.stdout).toMatch(/Examples?:\n {2}rankscope /);
    expect(result.status).toBe(0);
  });

  it("exits 2 on an unknown command", async () => {
    const result = await rankscope(["validat"]);
    expect(result).toMatchObject({ status: 2 });
    expect(result.stderr).toMatch(/^rankscope: unknown command "validat"/);
  });
});

describe("as a real process", () => {
  const bin = fileURLToPath(new URL("../rankscope.mjs", import.meta.url));
  const exec = promisify(execFile);
  const runBin = (args: string[]) =>
    exec(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: "1" } }).then(
      (result) => ({ status: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => ({ status: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("the bin validates files with the documented exit status", async () => {
    const directory = await mkdtemp(join(tmpdir(), "rankscope-"));
    await writeFile(join(directory, "bad.json"), DUPLICATE_IP);
    const result = await runBin(["validate", join(directory, "bad.json")]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${join(directory, "bad.json")}:33:21: error RT036 `);
    expect((await runBin(["validate", join(directory, "none.json")])).status).toBe(2);
  }, 30_000);

  it("fmt --write replaces the file atomically, leaving no temporary file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "rankscope-"));
    const path = join(directory, "hccl.json");
    await writeFile(path, AI_SERVER, { mode: 0o640 });
    expect((await runBin(["fmt", "--write", path])).status).toBe(0);
    expect(validateRankTable(await readFile(path, "utf8")).issues).toEqual([]);
    expect(await readdir(directory)).toEqual(["hccl.json"]);
  }, 30_000);

  it("writeFileAtomically keeps the old file when the write fails", async () => {
    const directory = await mkdtemp(join(tmpdir(), "rankscope-"));
    await expect(writeFileAtomically(join(directory, "missing-dir", "x.json"), "{}")).rejects.toThrow();
    expect(await readdir(directory)).toEqual([]);
  });
});
