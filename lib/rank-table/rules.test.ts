/** One test per rule code: a table that triggers it (code, severity, path, message) and one that must not. */
import { describe, expect, it } from "vitest";
import { RULE_CODES, RULE_SEVERITY } from "./findings";
import type { JsonValue } from "./model";
import { A5_CASES } from "./test-support/a5-cases";
import { LEGACY_CASES } from "./test-support/legacy-cases";
import type { RuleCase } from "./test-support/rule-case";
import { aiServerTable, edit, fixtureText, superPodTable } from "./test-support/tables";
import { validateRankTable } from "./validate";
import { writeRankTable } from "./write";

const SP = superPodTable();
const AI = aiServerTable();
const sp = (changes: Record<string, JsonValue | undefined>) => edit(SP, changes);
const ai = (changes: Record<string, JsonValue | undefined>) => edit(AI, changes);
const dev = (server: number, device: number, field = "") => `/server_list/${server}/device/${device}${field ? `/${field}` : ""}`;
const singleServerAi = ai({ "/server_list/1": undefined, "/server_count": "1", "/server_list/0/host_ip": undefined });
const onePod = sp({
  "/super_pod_list/1": undefined,
  "/super_pod_list/0/server_list": ["node_0", "node_1", "node_2", "node_3"].map((id) => ({ server_id: id })),
});

const CASES: RuleCase[] = [
  { code: "RT000", name: "text ends early", trigger: '{\n  "status": ', path: "", message: ["line 2, column 13"], clean: "{}" },
  { code: "RT000", name: "top level is a list", trigger: "[1]", path: "", message: ["a list"], clean: writeRankTable(SP) },
  { code: "RT001", name: "comments", trigger: fixtureText("seed-ai-server.jsonc"), path: "", message: ["11 comment(s)"], clean: writeRankTable(AI) },
  { code: "RT002", name: "unknown field", trigger: sp({ "/server_list/0/foo": "x" }), path: "/server_list/0/foo", message: ["foo"], clean: SP },
  {
    code: "RT002", name: "generator field is info", trigger: ai({ "/server_list/0/host_nic_ip": "reserve" }), path: "/server_list/0/host_nic_ip",
    message: ["host_nic_ip"], severity: "info", clean: AI,
  },
  { code: "RT002", name: "__proto__ is plain data", trigger: JSON.parse('{"__proto__": {"polluted": "yes"}}') as JsonValue, path: "/__proto__", message: ["__proto__"], clean: SP },
  { code: "RT003", name: "number rank_id", trigger: sp({ [dev(0, 0, "rank_id")]: 0 }), path: dev(0, 0, "rank_id"), message: ["a JSON number", '"0"'], clean: SP },
  { code: "RT004", name: "object as device_ip", trigger: sp({ [dev(0, 0, "device_ip")]: {} }), path: dev(0, 0, "device_ip"), message: ["device_ip must be a string, not an object"], clean: SP },
  { code: "RT010", name: "bad status", trigger: sp({ "/status": "done" }), path: "/status", message: ["status done"], clean: SP },
  { code: "RT010", name: "missing status", trigger: sp({ "/status": undefined }), path: "", message: ["status is missing"], clean: SP },
  { code: "RT011", name: "initializing", trigger: sp({ "/status": "initializing" }), path: "/status", message: ["initializing"], clean: SP },
  { code: "RT012", name: "1.1 format", trigger: sp({ "/version": "1.1" }), path: "/version", message: ["heterogeneous"], clean: SP },
  { code: "RT012", name: "unknown version", trigger: sp({ "/version": "3" }), path: "/version", message: ["version 3"], clean: SP },
  { code: "RT012", name: "missing version", trigger: ai({ "/version": undefined }), path: "", message: ["version is missing"], clean: AI },
  { code: "RT013", name: "super_pod_list in 1.0", trigger: sp({ "/version": "1.0" }), path: "/super_pod_list", message: ["super_pod_list"], clean: AI },
  { code: "RT014", name: "1.2 without super pods", trigger: edit(AI, { "/version": "1.2" }), path: "/version", message: ["AI Server mode"], clean: SP },
  { code: "RT015", name: "1.0 without server_count", trigger: ai({ "/server_count": undefined }), path: "", message: ['"2"'], clean: sp({ "/server_count": undefined }) },
  { code: "RT016", name: "wrong server_count", trigger: sp({ "/server_count": "5" }), path: "/server_count", message: ["server_count 5", "4 entries"], clean: SP },
  { code: "RT017", name: "empty server_list", trigger: ai({ "/server_list": [] }), path: "/server_list", message: ["server_list"], clean: AI },
  { code: "RT020", name: "no server_id", trigger: ai({ "/server_list/1/server_id": "" }), path: "/server_list/1", message: ["server_id"], clean: AI },
  {
    code: "RT021", name: "65-character server_id", trigger: ai({ "/server_list/1/server_id": "n".repeat(65) }), path: "/server_list/1/server_id",
    message: ["65 characters"], clean: ai({ "/server_list/1/server_id": "n".repeat(64) }),
  },
  { code: "RT022", name: "duplicate server_id", trigger: ai({ "/server_list/1/server_id": "node_0" }), path: "/server_list/1/server_id", message: ["node_0", "/server_list/0"], clean: AI },
  { code: "RT023", name: "bad host_ip", trigger: ai({ "/server_list/1/host_ip": "172.16.0.256" }), path: "/server_list/1/host_ip", message: ["172.16.0.256"], clean: AI },
  { code: "RT023", name: "leading zero host_ip", trigger: ai({ "/server_list/1/host_ip": "172.16.0.011" }), path: "/server_list/1/host_ip", message: ["172.16.0.011"], clean: AI },
  { code: "RT024", name: "missing host_ip", trigger: ai({ "/server_list/1/host_ip": undefined }), path: "/server_list/1", message: ["node_1"], clean: singleServerAi },
  { code: "RT025", name: "no devices", trigger: ai({ "/server_list/1/device": [] }), path: "/server_list/1", message: ["node_1"], clean: AI },
  { code: "RT026", name: "shared host_ip", trigger: ai({ "/server_list/1/host_ip": "172.16.0.110" }), path: "/server_list/1/host_ip", message: ["172.16.0.110", "/server_list/0"], clean: AI },
  { code: "RT030", name: "no device_id", trigger: sp({ [dev(0, 1, "device_id")]: undefined }), path: dev(0, 1), message: ["device_id"], clean: SP },
  { code: "RT031", name: "device_id 16", trigger: sp({ [dev(0, 3, "device_id")]: "16" }), path: dev(0, 3, "device_id"), message: ["device_id 16"], clean: sp({ [dev(0, 3, "device_id")]: "15" }) },
  { code: "RT032", name: "duplicate device_id", trigger: sp({ [dev(0, 1, "device_id")]: "0" }), path: dev(0, 1, "device_id"), message: ["device_id 0", dev(0, 0)], clean: SP },
  { code: "RT033", name: "bad super_device_id", trigger: sp({ [dev(0, 1, "super_device_id")]: "x1" }), path: dev(0, 1, "super_device_id"), message: ["x1"], clean: SP },
  {
    code: "RT034", name: "duplicate super_device_id in a super pod", trigger: sp({ [dev(1, 0, "super_device_id")]: "0" }), path: dev(1, 0, "super_device_id"),
    message: ["super_device_id 0", dev(0, 0), "super pod 0"], clean: SP,
  },
  { code: "RT035", name: "bad device_ip", trigger: sp({ [dev(0, 2, "device_ip")]: "192.168.1.300" }), path: dev(0, 2, "device_ip"), message: ["192.168.1.300"], clean: SP },
  {
    code: "RT036", name: "duplicate device_ip", trigger: sp({ [dev(1, 0, "device_ip")]: "192.168.1.6" }), path: dev(1, 0, "device_ip"),
    message: ["device_ip 192.168.1.6 is also used by /server_list/0/device/0"], clean: SP,
  },
  {
    code: "RT037", name: "mixed IPv4 and IPv6", trigger: sp({ [dev(1, 0, "device_ip")]: "fd00::6", [dev(1, 2, "device_ip")]: "fd00::8" }), path: dev(1, 0, "device_ip"),
    message: ["fd00::6", "IPv6", "IPv4"], clean: SP, count: 1,
  },
  { code: "RT038", name: "no device_ip with two super pods", trigger: sp({ [dev(1, 2, "device_ip")]: undefined }), path: dev(1, 2), message: ["more than one super pod (2)"], clean: edit(onePod, { [dev(1, 2, "device_ip")]: undefined }) },
  { code: "RT038", name: "no device_ip in 1.0 with two servers", trigger: ai({ [dev(1, 0, "device_ip")]: undefined }), path: dev(1, 0), message: ["more than one server (2)"], clean: edit(singleServerAi, { [dev(0, 0, "device_ip")]: undefined }) },
  { code: "RT039", name: "no device_ip in one super pod", trigger: edit(onePod, { [dev(3, 3, "device_ip")]: undefined }), path: dev(3, 3), message: ["HCCL_INTER_HCCS_DISABLE"], clean: onePod },
  { code: "RT040", name: "port above 65535", trigger: sp({ [dev(0, 0, "device_port")]: "70000" }), path: dev(0, 0, "device_port"), message: ["device_port 70000"], clean: SP },
  { code: "RT041", name: "reserved port", trigger: ai({ [dev(0, 0, "host_port")]: "80" }), path: dev(0, 0, "host_port"), message: ["host_port 80"], clean: ai({ [dev(0, 0, "host_port")]: "1024" }) },
  {
    code: "RT042", name: "shared host_port on one server", trigger: ai({ [dev(0, 1, "host_port")]: "16666" }), path: dev(0, 1, "host_port"),
    message: ["host_port 16666", dev(0, 0)], clean: AI,
  },
  {
    code: "RT043", name: "one NIC, one port as primary and backup", trigger: sp({ [dev(0, 1, "backup_device_port")]: "16666" }), path: dev(0, 1, "backup_device_port"),
    message: ["Port 16666", "192.168.1.6", dev(0, 0)], clean: SP,
  },
  { code: "RT044", name: "no rank_id", trigger: sp({ [dev(2, 2, "rank_id")]: undefined }), path: dev(2, 2), message: ["rank_id"], clean: SP },
  { code: "RT045", name: "negative rank_id", trigger: sp({ [dev(2, 2, "rank_id")]: "-1" }), path: dev(2, 2, "rank_id"), message: ["rank_id -1"], clean: SP },
  { code: "RT046", name: "duplicate rank_id", trigger: sp({ [dev(2, 2, "rank_id")]: "3" }), path: dev(2, 2, "rank_id"), message: ["rank_id 3", dev(0, 3)], clean: SP },
  { code: "RT047", name: "rank_id out of range", trigger: sp({ [dev(3, 3, "rank_id")]: "16" }), path: dev(3, 3, "rank_id"), message: ["rank_id 16", "0…15"], clean: SP },
  {
    code: "RT048", name: "ranks out of physical order", trigger: sp({ [dev(1, 0, "rank_id")]: "5", [dev(1, 1, "rank_id")]: "4" }), path: dev(1, 1, "rank_id"),
    message: ["rank_id 4", "rank_id 5"], clean: SP, count: 1,
  },
  {
    code: "RT049", name: "ranks interleaved across servers", trigger: ai({ [dev(0, 1, "rank_id")]: "3", [dev(1, 0, "rank_id")]: "1", [dev(1, 1, "rank_id")]: "2" }), path: "/server_list/0",
    message: ["node_0", "0,3"], clean: AI, count: 1,
  },
  { code: "RT050", name: "bad backup_device_ip", trigger: sp({ [dev(0, 0, "backup_device_ip")]: "192.168.1" }), path: dev(0, 0, "backup_device_ip"), message: ["192.168.1"], clean: SP },
  { code: "RT051", name: "backup is itself", trigger: sp({ [dev(0, 0, "backup_device_ip")]: "192.168.1.6" }), path: dev(0, 0, "backup_device_ip"), message: ["192.168.1.6"], clean: SP },
  {
    code: "RT052", name: "backup on another NPU", trigger: sp({ [dev(0, 0, "backup_device_ip")]: "192.168.1.8" }), path: dev(0, 0, "backup_device_ip"),
    message: ["192.168.1.8", dev(0, 2), "device_id 1"], clean: SP,
  },
  {
    code: "RT053", name: "one-sided pairing", trigger: sp({ [dev(0, 1, "backup_device_ip")]: undefined, [dev(0, 1, "backup_device_port")]: undefined }), path: dev(0, 0, "backup_device_ip"),
    message: ["192.168.1.7", dev(0, 1), "(none)"], clean: SP,
  },
  { code: "RT054", name: "backup port without backup ip", trigger: sp({ [dev(0, 0, "backup_device_ip")]: undefined }), path: dev(0, 0, "backup_device_port"), message: ["16667"], clean: SP },
  { code: "RT054", name: "backup fields in 1.0", trigger: ai({ [dev(0, 0, "backup_device_ip")]: "192.168.1.9" }), path: dev(0, 0, "backup_device_ip"), message: ['"1.0"'], clean: AI },
  { code: "RT055", name: "backup NIC not in the table", trigger: sp({ [dev(0, 0, "backup_device_ip")]: "192.168.9.9" }), path: dev(0, 0, "backup_device_ip"), message: ["192.168.9.9"], clean: SP },
  { code: "RT060", name: "no super_pod_id", trigger: sp({ "/super_pod_list/1/super_pod_id": undefined }), path: "/super_pod_list/1", message: ["super_pod_id"], clean: SP },
  { code: "RT061", name: "duplicate super_pod_id", trigger: sp({ "/super_pod_list/1/super_pod_id": "0" }), path: "/super_pod_list/1/super_pod_id", message: ["super_pod_id 0", "/super_pod_list/0"], clean: SP },
  { code: "RT062", name: "unknown server in a super pod", trigger: sp({ "/super_pod_list/1/server_list/1/server_id": "node_9" }), path: "/super_pod_list/1/server_list/1/server_id", message: ["node_9"], clean: SP },
  {
    code: "RT063", name: "server in two super pods", trigger: sp({ "/super_pod_list/1/server_list/2": { server_id: "node_0" } }), path: "/super_pod_list/1/server_list/2/server_id",
    message: ["node_0", "super pod 0", "/super_pod_list/0/server_list/0"], clean: SP,
  },
  { code: "RT064", name: "server in no super pod", trigger: sp({ "/super_pod_list/1/server_list/1": undefined }), path: "/server_list/3/server_id", message: ["node_3"], clean: SP },
  {
    code: "RT065", name: "super pods interleaved", trigger: sp({ "/super_pod_list/0/server_list/1/server_id": "node_2", "/super_pod_list/1/server_list/0/server_id": "node_1" }),
    path: "/super_pod_list/0", message: ["super pod 0", "0,2"], clean: SP, count: 2,
  },
  { code: "RT066", name: "super pod without servers", trigger: sp({ "/super_pod_list/1/server_list": [] }), path: "/super_pod_list/1", message: ["Super pod 1 has no servers"], clean: SP },
  { code: "RT067", name: "some devices without super_device_id", trigger: sp({ [dev(2, 1, "super_device_id")]: undefined }), path: dev(2, 1), message: ["15 of 16"], clean: SP, count: 1 },
  { code: "RT067", name: "super_device_id without super_pod_list", trigger: sp({ "/super_pod_list": undefined }), path: dev(0, 0, "super_device_id"), message: ["super_pod_list is missing"], clean: SP },
  ...LEGACY_CASES,
  ...A5_CASES,
];

describe("every rule", () => {
  it("has a case", () => {
    expect(new Set(CASES.map((c) => c.code))).toEqual(new Set(RULE_CODES));
  });

  it.each(CASES)("$code ($name) is raised where it belongs and not on a near miss", (rule) => {
    const report = validateRankTable(rule.trigger);
    const found = report.issues.filter((issue) => issue.code === rule.code);
    const issue = found.find((candidate) => candidate.path === rule.path);
    expect(issue, `${rule.code} at ${rule.path} in ${JSON.stringify(report.issues, null, 1)}`).toBeDefined();
    expect(issue!.severity).toBe(rule.severity ?? RULE_SEVERITY[rule.code]);
    for (const fragment of rule.message) expect(issue!.message).toContain(fragment);
    if (rule.count !== undefined) expect(found).toHaveLength(rule.count);
    if (issue!.severity === "error") expect(report.valid).toBe(false);

    const clean = validateRankTable(rule.clean);
    expect(clean.issues.filter((other) => other.code === rule.code)).toEqual([]);
  });
});

describe("the seed's examples", () => {
  it.each(["seed-super-pod.jsonc", "seed-ai-server.jsonc"])("%s is clean apart from its comments", (name) => {
    const report = validateRankTable(fixtureText(name));
    expect(report.valid).toBe(true);
    expect(report.issues.map((issue) => issue.code)).toEqual(["RT001"]);
    expect(report.issues[0]).toMatchObject({ line: 2 });
  });

  it("reports the 1.2 example's shape", () => {
    const report = validateRankTable(fixtureText("seed-super-pod.jsonc"));
    expect(report).toMatchObject({ version: "1.2", mode: "super-pod", stats: { superPods: 2, servers: 4, devices: 16 } });
  });

  it("reports the 1.0 example's shape", () => {
    const report = validateRankTable(fixtureText("seed-ai-server.jsonc"));
    expect(report).toMatchObject({ version: "1.0", mode: "ai-server", stats: { superPods: 0, servers: 2, devices: 4 } });
  });

  it("validates the canonical export of both examples without any finding", () => {
    expect(validateRankTable(writeRankTable(SP)).issues).toEqual([]);
    expect(validateRankTable(writeRankTable(AI)).issues).toEqual([]);
  });
});
