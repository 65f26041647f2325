/** Trigger and near miss of every legacy-template rule (RT005, RT070–RT079), on the real tables of fixtures/. */
import { isJsonObject, type JsonObject, type JsonValue } from "../model";
import { parseRankTable } from "../parse";
import type { RuleCase } from "./rule-case";
import { aiServerTable, edit, fixtureText } from "./tables";

export function fixtureObject(name: string): JsonObject {
  const value = parseRankTable(fixtureText(name)).value;
  if (!isJsonObject(value)) throw new Error(`fixture ${name} is not an object`);
  return value;
}

/** TensorFlow flavour: one instance (pod "another", server 127.0.0.1) of 8 devices. */
const TF = fixtureObject("legacy-tensorflow-8p.json");
/** MindSpore flavour: 8 instances of one device each, rank_id 0–7, on server 10.34.0.4. */
const MS = fixtureObject("legacy-mindspore-8p.json");
/** The reference's template 2: two instances on node_0 and node_1. */
const DOC = fixtureObject("legacy-reference-template2.jsonc");
const AI = aiServerTable();

const tf = (changes: Record<string, JsonValue | undefined>) => edit(TF, changes);
const ms = (changes: Record<string, JsonValue | undefined>) => edit(MS, changes);
const doc = (changes: Record<string, JsonValue | undefined>) => edit(DOC, changes);
const instance = (index: number, field = "") => `/group_list/0/instance_list/${index}${field ? `/${field}` : ""}`;
const device = (inst: number, index: number, field = "") => `${instance(inst)}/devices/${index}${field ? `/${field}` : ""}`;

/** MindSpore flavour on two servers: instances 0–3 on 10.34.0.4, 4–7 on 10.34.0.5. */
const MS_TWO_SERVERS = ms({
  "/group_list/0/server_num": "2",
  ...Object.fromEntries([4, 5, 6, 7].map((index) => [instance(index, "server_id"), "10.34.0.5"])),
});

export const LEGACY_CASES: RuleCase[] = [
  { code: "RT005", name: "legacy TensorFlow flavour", trigger: TF, path: "", message: ["TensorFlow", "pod_name"], clean: AI },
  { code: "RT005", name: "legacy MindSpore flavour", trigger: MS, path: "", message: ["MindSpore", "deploy_mode"], clean: AI },
  { code: "RT070", name: "group_count off", trigger: tf({ "/group_count": "2" }), path: "/group_count", message: ["group_count 2", "(1)"], clean: TF },
  { code: "RT070", name: "group_count missing", trigger: tf({ "/group_count": undefined }), path: "", message: ['"1"'], clean: TF },
  { code: "RT070", name: "group_list empty", trigger: tf({ "/group_list": [] }), path: "/group_list", message: ["group_list"], clean: TF },
  { code: "RT071", name: "instance_count off", trigger: tf({ "/group_list/0/instance_count": "3" }), path: "/group_list/0/instance_count", message: ["instance_count 3", "(1)"], clean: TF },
  { code: "RT072", name: "device_count off", trigger: tf({ "/group_list/0/device_count": "7" }), path: "/group_list/0/device_count", message: ["device_count 7", "(8)"], clean: TF },
  { code: "RT072", name: "device_num missing (MindSpore)", trigger: ms({ "/group_list/0/device_num": undefined }), path: "/group_list/0", message: ["device_num", '"8"'], clean: MS },
  { code: "RT072", name: "server_num off", trigger: ms({ "/group_list/0/server_num": "2" }), path: "/group_list/0/server_num", message: ["server_num 2", "(1)"], clean: MS_TWO_SERVERS },
  { code: "RT073", name: "pod_name missing", trigger: tf({ [instance(0, "pod_name")]: undefined }), path: instance(0), message: ["pod_name"], clean: MS },
  { code: "RT073", name: "pod_name twice", trigger: doc({ [instance(1, "pod_name")]: "tf-bae41" }), path: instance(1, "pod_name"), message: ["tf-bae41", instance(0)], clean: DOC },
  { code: "RT073", name: "server_id missing", trigger: ms({ [instance(2, "server_id")]: "" }), path: instance(2), message: ["server_id"], clean: MS },
  { code: "RT074", name: "instance without devices", trigger: tf({ [instance(0, "devices")]: [] }), path: instance(0), message: ["another"], clean: TF },
  { code: "RT075", name: "device_id 8 (TensorFlow flavour)", trigger: tf({ [device(0, 7, "device_id")]: "8" }), path: device(0, 7, "device_id"), message: ["device_id 8", "0 to 7"], clean: ms({ [device(7, 0, "device_id")]: "8" }) },
  { code: "RT075", name: "device_id missing", trigger: tf({ [device(0, 3, "device_id")]: undefined }), path: device(0, 3), message: ["device_id"], clean: TF },
  {
    code: "RT076", name: "device_id twice on one server", trigger: tf({ [device(0, 1, "device_id")]: "0" }), path: device(0, 1, "device_id"),
    message: ["device_id 0", "127.0.0.1", device(0, 0)], clean: doc({ [device(1, 0, "device_id")]: "0" }),
  },
  { code: "RT077", name: "placeholder address", trigger: tf({ [device(0, 2, "device_ip")]: "xxx.xxx.xxx.xxx" }), path: device(0, 2, "device_ip"), message: ["xxx.xxx.xxx.xxx", "placeholder"], clean: TF },
  { code: "RT077", name: "bracketed placeholder", trigger: tf({ [device(0, 0, "device_ip")]: "[device_ip_0]" }), path: device(0, 0, "device_ip"), message: ["[device_ip_0]", "placeholder"], clean: TF },
  { code: "RT077", name: "malformed address", trigger: tf({ [device(0, 0, "device_ip")]: "192.168.10" }), path: device(0, 0, "device_ip"), message: ["192.168.10"], clean: TF },
  {
    code: "RT077", name: "no device_ip with two servers", trigger: doc({ [device(1, 0, "device_ip")]: undefined }), path: device(1, 0),
    message: ["more than one server (2)"], clean: tf({ [device(0, 0, "device_ip")]: undefined }),
  },
  { code: "RT078", name: "device_ip twice", trigger: tf({ [device(0, 1, "device_ip")]: "192.168.10.3" }), path: device(0, 1, "device_ip"), message: ["192.168.10.3", device(0, 0)], clean: TF },
  { code: "RT079", name: "rank_id twice", trigger: ms({ [instance(1, "rank_id")]: "0" }), path: instance(1, "rank_id"), message: ["rank_id 0", instance(0)], clean: MS },
  { code: "RT079", name: "rank_id missing (MindSpore flavour)", trigger: ms({ [instance(3, "rank_id")]: undefined }), path: instance(3), message: ["rank_id"], clean: TF },
  { code: "RT079", name: "rank_id out of range", trigger: ms({ [instance(7, "rank_id")]: "8" }), path: instance(7, "rank_id"), message: ["rank_id 8", "0…7"], clean: MS },
  {
    code: "RT079", name: "ranks interleaved across servers", trigger: edit(MS_TWO_SERVERS, { [instance(1, "rank_id")]: "4", [instance(4, "rank_id")]: "1" }), path: instance(0),
    message: ["10.34.0.4", "0,2-4"], clean: MS_TWO_SERVERS,
  },
];
