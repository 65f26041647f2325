/** Trigger and near miss of every "2.0" rule (RT100–RT124) and of RT006, on HCCL's own examples and real files. */
import type { JsonValue } from "../model";
import { fixtureObject } from "./legacy-cases";
import type { RuleCase } from "./rule-case";
import { aiServerTable, edit, superPodTable } from "./tables";

/** The A5 reference's IPv4 example: 4 ranks on AI Servers az0-rack0-pod0 and az0-rack0-pod1, levels 0 and 1. */
const A5 = fixtureObject("a5-reference-4p.jsonc");
/** The A5 reference's EID example: 2 ranks, EID addresses at level 0, host IPv4 ("d2h") at level 3. */
const EID = fixtureObject("a5-reference-eid.jsonc");
const PD = fixtureObject("llm-datadist-pd.json");
const SP = superPodTable();
const AI = aiServerTable();

const a5 = (changes: Record<string, JsonValue | undefined>) => edit(A5, changes);
const eid = (changes: Record<string, JsonValue | undefined>) => edit(EID, changes);
const rank = (index: number, field = "") => `/rank_list/${index}${field ? `/${field}` : ""}`;
const level = (r: number, l: number, field = "") => `${rank(r)}/level_list/${l}${field ? `/${field}` : ""}`;
const address = (r: number, l: number, a: number, field = "") => `${level(r, l)}/rank_addr_list/${a}${field ? `/${field}` : ""}`;

const MINDIE = {
  version: "1.0",
  status: "completed",
  server_group_list: [
    { group_id: "0", server_count: "1", server_list: [{ server_id: "10.0.0.1", server_ip: "172.17.0.2" }] },
    {
      group_id: "2", server_count: "1",
      server_list: [{ server_id: "10.0.0.2", server_ip: "172.17.0.3", device: [{ device_id: "0", device_ip: "10.1.0.1", rank_id: "0" }, { device_id: "1", device_ip: "10.1.0.2", rank_id: "1" }] }],
    },
  ],
};
const mindie = (changes: Record<string, JsonValue | undefined>) => edit(MINDIE, changes);
const mindieDevice = (index: number, field: string) => `/server_group_list/1/server_list/0/device/${index}/${field}`;

export const A5_CASES: RuleCase[] = [
  { code: "RT006", name: "LLM-DataDist prefill/decode table", trigger: PD, path: "", message: ["LLM-DataDist", "prefill_device_list"], clean: SP },
  { code: "RT006", name: "MindIE global rank table", trigger: MINDIE, path: "", message: ["MindIE", "server_group_list"], clean: AI },
  { code: "RT035", name: "placeholder in a prefill/decode table", trigger: edit(PD, { "/decode_device_list/0/device_ip": "xx.xx.xx.xx" }), path: "/decode_device_list/0/device_ip", message: ["xx.xx.xx.xx"], clean: PD },
  {
    code: "RT036", name: "one address for prefill and decode", trigger: edit(PD, { "/decode_device_list/0/device_ip": "10.0.0.1" }), path: "/decode_device_list/0/device_ip",
    message: ["10.0.0.1", "/prefill_device_list/0"], clean: PD,
  },
  { code: "RT032", name: "device_id twice on a MindIE server", trigger: mindie({ [mindieDevice(1, "device_id")]: "0" }), path: mindieDevice(1, "device_id"), message: ["device_id 0"], clean: MINDIE },
  { code: "RT100", name: "rank_count 0", trigger: a5({ "/rank_count": 0 }), path: "/rank_count", message: ["rank_count 0"], clean: A5 },
  { code: "RT100", name: "rank_count missing", trigger: a5({ "/rank_count": undefined }), path: "", message: ["rank_count", "4"], clean: A5 },
  { code: "RT101", name: "rank_count off", trigger: a5({ "/rank_count": 5 }), path: "/rank_count", message: ["rank_count 5", "(4)"], clean: A5 },
  { code: "RT102", name: "empty rank_list", trigger: a5({ "/rank_list": [] }), path: "/rank_list", message: ["rank_list"], clean: A5 },
  { code: "RT102", name: "a 1.2 table labelled 2.0", trigger: edit(SP, { "/version": "2.0" }), path: "", message: ["server_list", "1.x"], clean: A5 },
  { code: "RT103", name: "rank_id as a string", trigger: a5({ [rank(0, "rank_id")]: "0" }), path: rank(0, "rank_id"), message: ['"0"', "JSON number"], clean: A5 },
  { code: "RT104", name: "no rank_id", trigger: a5({ [rank(3, "rank_id")]: undefined }), path: rank(3), message: ["rank_id"], clean: A5 },
  { code: "RT105", name: "negative rank_id", trigger: a5({ [rank(3, "rank_id")]: -3 }), path: rank(3, "rank_id"), message: ["rank_id -3"], clean: A5 },
  { code: "RT106", name: "rank_id twice", trigger: a5({ [rank(1, "rank_id")]: 0 }), path: rank(1, "rank_id"), message: ["rank_id 0", rank(0)], clean: A5 },
  { code: "RT107", name: "rank_id out of range", trigger: a5({ [rank(3, "rank_id")]: 4 }), path: rank(3, "rank_id"), message: ["rank_id 4", "0…3"], clean: A5 },
  {
    code: "RT108", name: "ranks of one AI Server not one block", trigger: a5({ [rank(1, "rank_id")]: 2, [rank(2, "rank_id")]: 1 }), path: rank(0),
    message: ["az0-rack0-pod0", "0,2"], clean: A5,
  },
  { code: "RT109", name: "local_id 65", trigger: a5({ [rank(1, "local_id")]: 65 }), path: rank(1, "local_id"), message: ["local_id 65"], clean: a5({ [rank(1, "local_id")]: 64 }) },
  { code: "RT110", name: "no device_id", trigger: a5({ [rank(2, "device_id")]: undefined }), path: rank(2), message: ["device_id"], clean: A5 },
  {
    code: "RT111", name: "local_id twice in one AI Server", trigger: a5({ [rank(1, "local_id")]: 0 }), path: rank(1, "local_id"),
    message: ["local_id 0", "az0-rack0-pod0", rank(0)], clean: A5,
  },
  { code: "RT112", name: "port above 65535", trigger: a5({ [rank(0, "device_port")]: 70000 }), path: rank(0, "device_port"), message: ["device_port 70000"], clean: A5 },
  { code: "RT113", name: "reserved port", trigger: a5({ [rank(0, "host_port")]: 80 }), path: rank(0, "host_port"), message: ["host_port 80"], clean: a5({ [rank(0, "host_port")]: 1024 }) },
  { code: "RT114", name: "no levels", trigger: a5({ [rank(0, "level_list")]: [] }), path: rank(0), message: ["level_list"], clean: A5 },
  { code: "RT115", name: "net_layer 8", trigger: a5({ [level(0, 1, "net_layer")]: 8 }), path: level(0, 1, "net_layer"), message: ["net_layer 8"], clean: a5({ [level(0, 1, "net_layer")]: 7 }) },
  { code: "RT116", name: "levels out of order", trigger: a5({ [level(0, 1, "net_layer")]: 0 }), path: level(0, 1, "net_layer"), message: ["net_layer 0 comes after net_layer 0"], clean: A5 },
  { code: "RT116", name: "levels not from 0", trigger: eid({ [level(0, 0, "net_layer")]: 1 }), path: level(0, 0, "net_layer"), message: ["net_layer 1", "start at net_layer 0"], clean: EID },
  {
    code: "RT117", name: "net_instance_id of 1025 characters", trigger: a5({ [level(0, 1, "net_instance_id")]: "z".repeat(1025) }), path: level(0, 1, "net_instance_id"),
    message: ["1025 characters"], clean: a5({ [level(0, 1, "net_instance_id")]: "z".repeat(1024) }),
  },
  { code: "RT118", name: "unknown net_type", trigger: a5({ [level(0, 1, "net_type")]: "MESH" }), path: level(0, 1, "net_type"), message: ["MESH"], clean: A5 },
  { code: "RT118", name: "CLOS at net_layer 0", trigger: a5({ [level(0, 0, "net_type")]: "CLOS" }), path: level(0, 0, "net_type"), message: ["CLOS", "net_layer 0"], clean: a5({ [level(0, 1, "net_type")]: "TOPO_FILE_DESC" }) },
  { code: "RT119", name: "no addresses", trigger: a5({ [level(0, 0, "rank_addr_list")]: [] }), path: level(0, 0), message: ["rank_addr_list"], clean: A5 },
  { code: "RT120", name: "unknown addr_type", trigger: a5({ [address(0, 0, 0, "addr_type")]: "MAC" }), path: address(0, 0, 0, "addr_type"), message: ["MAC"], clean: a5({ [address(0, 0, 0, "addr_type")]: "ipv4" }) },
  { code: "RT121", name: "bad IPv4 addr", trigger: a5({ [address(0, 0, 0, "addr")]: "172.16.0.256" }), path: address(0, 0, 0, "addr"), message: ["172.16.0.256", "IPV4"], clean: A5 },
  { code: "RT121", name: "EID placeholder", trigger: eid({ [address(1, 0, 2, "addr")]: "...." }), path: address(1, 0, 2, "addr"), message: ["....", "placeholder"], clean: EID },
  { code: "RT121", name: "EID of 31 digits", trigger: eid({ [address(0, 0, 0, "addr")]: "00000000000000000010000dfdf0020" }), path: address(0, 0, 0, "addr"), message: ["EID"], clean: EID },
  { code: "RT122", name: "EID port without die", trigger: eid({ [`${address(0, 0, 1, "ports")}/0`]: "5" }), path: `${address(0, 0, 1, "ports")}/0`, message: ["Port 5", "die/port"], clean: EID },
  {
    code: "RT123", name: "one port bound to two addresses", trigger: a5({ [`${address(0, 1, 1, "ports")}/0`]: "0/4" }), path: `${address(0, 1, 1, "ports")}/0`,
    message: ["0/4", address(0, 1, 0)], clean: A5,
  },
  {
    code: "RT124", name: "one EID for two ranks", trigger: eid({ [address(1, 0, 0, "addr")]: "000000000000000000100000dfdf0020" }), path: address(1, 0, 0, "addr"),
    message: ["000000000000000000100000dfdf0020", address(0, 0, 0)], clean: EID,
  },
  {
    code: "RT124", name: "one host address for two ranks is a warning", trigger: a5({ [address(1, 1, 0, "addr")]: "172.16.0.15" }), path: address(1, 1, 0, "addr"),
    message: ["172.16.0.15"], severity: "warning", clean: A5,
  },
];
