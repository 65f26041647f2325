/**
 * Rules of version "2.0" (RT100–RT124). Each cites its source: "A5 reference" is HCCL's
 * `docs/zh/user_guide/cluster_info_config/rank_table_config_a5.md` (hicann/hccl@09300b70), "MindCluster hccl.json"
 * the Atlas 350/850/950 section of MindCluster's `docs/en/scheduling/api/hccl.json_file_description.md`.
 *
 * An "AI Server" here is the set of ranks that share their net_layer 0 instance: level 0 is the connection inside
 * the server, described by the server's topology file (A5 reference: net_layer 0 "Server内连接", TOPO_FILE_DESC),
 * and local_id is unique within it.
 */
import { A5_ADDRESS_TYPES, A5_LIMITS, A5_NET_TYPES } from "../a5-model";
import type { A5AddressView, A5LevelView, A5RankView, A5View } from "../a5-view";
import type { Findings } from "../findings";
import { FIRST_UNRESERVED_PORT, MAX_PORT, type JsonObject } from "../model";
import { addressKey, ipv4Value } from "../net";
import { StringMap } from "../string-map";
import { formatRanges, isContiguous, rememberFirst } from "./context";
import { isPlaceholder } from "./legacy";

const isWhole = (value: number) => Number.isInteger(value) && value >= 0;
const DIGIT_0 = 48, DIGIT_9 = 57, SLASH = 47, LOWER_A = 97, LOWER_F = 102, UPPER_A = 65, UPPER_F = 70;
const EID_LENGTH = 32;

/**
 * An EID as hccn_tool prints it: 128 bits in 32 hex digits (A5 reference examples, "000000000000000000100000dfdf0020").
 * 0 when the text is not one, 1 when it is (lower-case hex), 2 when it has upper-case digits (its key is then the
 * lower-cased text). Hand-written instead of a regular expression: it runs for every address of every rank.
 */
export function eidForm(text: string): 0 | 1 | 2 {
  if (text.length !== EID_LENGTH) return 0;
  let form: 1 | 2 = 1;
  for (let i = 0; i < EID_LENGTH; i++) {
    const c = text.charCodeAt(i);
    if ((c >= DIGIT_0 && c <= DIGIT_9) || (c >= LOWER_A && c <= LOWER_F)) continue;
    if (c >= UPPER_A && c <= UPPER_F) form = 2;
    else return 0;
  }
  return form;
}

/** "die/port" (A5 reference: "每个端口的配置格式为：Die ID/端口ID", e.g. "1/0"): digits, a slash, digits. */
function isDiePort(text: string): boolean {
  const slash = text.indexOf("/");
  if (slash < 1 || slash === text.length - 1) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < DIGIT_0 || c > DIGIT_9) && !(c === SLASH && i === slash)) return false;
  }
  return true;
}

export interface A5Summary {
  servers: number;
  /** Distinct net_layer 1 instances (the network joining the AI Servers: a SuperPoD, or an availability zone). */
  superPods: number;
}

export function checkA5(view: A5View, findings: Findings, root: JsonObject): A5Summary {
  checkRankCount(view, findings, root);
  const ranksByServer = new Map<string, A5RankView[]>();
  const layerOne = new Set<string>();
  for (const rank of view.ranks) {
    checkRankFields(rank, findings);
    checkLevels(rank, findings);
    const server = rank.levels[0]?.netLayer === 0 ? rank.levels[0].netInstanceId : undefined;
    if (server !== undefined) {
      const list = ranksByServer.get(server);
      if (list === undefined) ranksByServer.set(server, [rank]);
      else list.push(rank);
    }
    for (const level of rank.levels) if (level.netLayer === 1 && level.netInstanceId !== undefined) layerOne.add(level.netInstanceId);
  }
  checkRankIds(view, findings);
  for (const [server, ranks] of ranksByServer) checkServer(server, ranks, findings);
  checkAddressesUnique(view, findings);
  return { servers: ranksByServer.size, superPods: layerOne.size };
}

/** RT100 rank_count in [1, 65536] (A5 reference: 必选, 取值范围 [1, 65536]); RT101 it counts rank_list; RT102 rank_list present. */
export function checkRankCount(view: A5View, findings: Findings, root: JsonObject): void {
  const { rankCount } = view;
  if (rankCount === undefined) findings.addMessage("RT100", "RT100.missing", "", { count: view.rankEntryCount });
  else if (!isWhole(rankCount) || rankCount < 1 || rankCount > A5_LIMITS.maxRanks) findings.add("RT100", "/rank_count", { value: String(rankCount) });
  else if (!view.rankListMissing && rankCount !== view.rankEntryCount) findings.add("RT101", "/rank_count", { value: rankCount, count: view.rankEntryCount });
  // A table of servers labelled "2.0" (a 1.x table whose version was bumped) gets a message saying so.
  if (view.rankListMissing) findings.addMessage("RT102", root.server_list === undefined ? "RT102" : "RT102.server-list", root.rank_list === undefined ? "" : "/rank_list");
}

/** RT104/RT105 rank_id, RT109 local_id, RT110 device_id (A5 reference: [0,64] each), RT112/RT113 ports ([1,65535], avoid [1,1023]). */
export function checkRankFields(rank: A5RankView, findings: Findings): void {
  if (rank.rankText === undefined) findings.add("RT104", rank.path);
  else if (rank.rankId === undefined || !isWhole(rank.rankId)) findings.add("RT105", `${rank.path}/rank_id`, { value: rank.rankText });
  // One call per field, not a loop over tuples: no arrays allocated per rank.
  checkLocalNumber(rank, "local_id", rank.localId, "RT109", findings);
  checkLocalNumber(rank, "device_id", rank.deviceId, "RT110", findings);
  if (rank.devicePort !== undefined) checkPort(rank, "device_port", rank.devicePort, findings);
  if (rank.hostPort !== undefined) checkPort(rank, "host_port", rank.hostPort, findings);
}

function checkLocalNumber(rank: A5RankView, field: string, value: number | undefined, code: "RT109" | "RT110", findings: Findings): void {
  if (value === undefined) findings.addMessage(code, `${code}.missing`, rank.path);
  else if (!isWhole(value) || value > A5_LIMITS.maxLocalId) findings.add(code, `${rank.path}/${field}`, { value: String(value) });
}

function checkPort(rank: A5RankView, field: string, port: number, findings: Findings): void {
  if (!isWhole(port) || port < 1 || port > MAX_PORT) findings.add("RT112", `${rank.path}/${field}`, { field, value: String(port) });
  else if (port < FIRST_UNRESERVED_PORT) findings.add("RT113", `${rank.path}/${field}`, { field, value: port });
}

/** RT114–RT119 for each level of a rank, then its addresses. */
export function checkLevels(rank: A5RankView, findings: Findings): void {
  // A5 reference: level_list 必选, "此列表下数组长度不能超过8".
  if (rank.levelListMissing) findings.addMessage("RT114", "RT114.missing", rank.path);
  else if (rank.levelCount > A5_LIMITS.maxLevels) findings.add("RT114", `${rank.path}/level_list`, { count: rank.levelCount });
  let previous: A5LevelView | undefined;
  for (const level of rank.levels) {
    const { netLayer } = level;
    // A5 reference: net_layer [0,7], "需要从0开始编号，以升序的形式排列".
    if (netLayer === undefined) findings.addMessage("RT115", "RT115.missing", level.path);
    else if (!isWhole(netLayer) || netLayer > A5_LIMITS.maxNetLayer) findings.add("RT115", `${level.path}/net_layer`, { value: String(netLayer) });
    else {
      if (previous === undefined && netLayer !== 0) findings.addMessage("RT116", "RT116.first", `${level.path}/net_layer`, { value: netLayer });
      else if (previous?.netLayer !== undefined && netLayer <= previous.netLayer) {
        findings.add("RT116", `${level.path}/net_layer`, { value: netLayer, previous: previous.netLayer, other: previous.path });
      }
      previous = level;
    }
    // A5 reference: net_instance_id 必选, unique per net_layer (user-defined), at most 1024 characters.
    if (level.netInstanceId === undefined) findings.addMessage("RT117", "RT117.missing", level.path);
    else if (level.netInstanceId.length > A5_LIMITS.maxNetInstanceIdLength) findings.add("RT117", `${level.path}/net_instance_id`, { length: level.netInstanceId.length });
    // A5 reference: net_type TOPO_FILE_DESC or CLOS; at net_layer 0 only TOPO_FILE_DESC.
    if (level.netType === undefined) findings.addMessage("RT118", "RT118.missing", level.path);
    else if (!A5_NET_TYPES.has(level.netType)) findings.add("RT118", `${level.path}/net_type`, { value: level.netType });
    else if (netLayer === 0 && level.netType !== "TOPO_FILE_DESC") findings.addMessage("RT118", "RT118.layer-0", `${level.path}/net_type`, { value: level.netType });
    // A5 reference: rank_addr_list 必选, at most 24 entries.
    if (level.addressListMissing) findings.addMessage("RT119", "RT119.missing", level.path);
    else if (level.addressCount > A5_LIMITS.maxAddresses) findings.add("RT119", `${level.path}/rank_addr_list`, { count: level.addressCount });
    checkAddresses(level, findings);
  }
}

/** RT120 addr_type, RT121 addr, RT122 ports, RT123 a port bound to two addresses of one level. */
function checkAddresses(level: A5LevelView, findings: Findings): void {
  const { addresses } = level;
  for (let position = 0; position < addresses.length; position++) {
    const address = addresses[position]!;
    const type = address.addrType === undefined || A5_ADDRESS_TYPES.has(address.addrType) ? address.addrType : address.addrType.toUpperCase();
    if (address.addrType === undefined) findings.addMessage("RT120", "RT120.missing", address.path);
    else if (!A5_ADDRESS_TYPES.has(type!)) findings.add("RT120", `${address.path}/addr_type`, { value: address.addrType });
    checkAddr(address, type, findings);
    const { ports } = address;
    // A5 reference: ports 必选, "最多支持配置16个端口，支持的最大字符串长度为32", each "Die ID/端口ID" (host NICs: "d2h").
    if (ports === undefined || ports.length === 0) findings.addMessage("RT122", "RT122.missing", address.path);
    else if (ports.length > A5_LIMITS.maxPorts) findings.addMessage("RT122", "RT122.count", `${address.path}/ports`, { count: ports.length });
    else {
      for (let index = 0; index < ports.length; index++) {
        const port = ports[index]!;
        const deviceSide = type === "EID";
        if (port.length > A5_LIMITS.maxPortLength || (deviceSide && !isDiePort(port))) findings.add("RT122", `${address.path}/ports/${index}`, { value: port });
        // A5 reference: "一个端口在同一个网络层次下，只能映射到一个地址". Earlier addresses of the level are looked
        // up in place (a level has at most 24 × 16 ports): no list or map is allocated per level.
        const owner = firstOwnerOfPort(addresses, position, port);
        if (owner !== undefined) findings.add("RT123", `${address.path}/ports/${index}`, { value: port, other: owner.path });
      }
    }
  }
}

/** The first of the level's addresses before `position` that lists `port`. */
function firstOwnerOfPort(addresses: readonly A5AddressView[], position: number, port: string): A5AddressView | undefined {
  for (let earlier = 0; earlier < position; earlier++) if (addresses[earlier]!.ports?.includes(port)) return addresses[earlier];
  return undefined;
}

function checkAddr(address: A5AddressView, type: string | undefined, findings: Findings): void {
  const { addr } = address;
  if (addr === undefined) {
    findings.addMessage("RT121", "RT121.missing", address.path);
    return;
  }
  // A5 reference: addr 1–256 characters, "地址需要符合addr_type指定的地址格式".
  let valid = addr.length <= A5_LIMITS.maxAddrLength;
  if (valid && type === "EID") valid = eidForm(addr) !== 0;
  else if (valid && type === "IPV4") valid = ipv4Value(addr) >= 0;
  else if (valid && type === "IPV6") valid = addr.includes(":") && addressKey(addr) !== undefined;
  if (!valid) findings.addMessage("RT121", isPlaceholder(addr) || /^\.+$/.test(addr) ? "RT121.placeholder" : "RT121", `${address.path}/addr`, { value: addr, type: address.addrType ?? "?" });
}

/** RT106 unique rank_id and RT107 in 0…N−1 (A5 reference: 从0开始配置，且全局唯一，取值范围 [0, NPU总数-1]). */
function checkRankIds(view: A5View, findings: Findings): void {
  const total = view.ranks.length;
  const seen = new Int32Array(total);
  const outside = new Map<number, A5RankView>();
  for (let index = 0; index < total; index++) {
    const rank = view.ranks[index]!;
    const id = rank.rankId;
    if (id === undefined || !isWhole(id)) continue;
    let earlier: A5RankView | undefined;
    if (id < total) {
      if (seen[id] !== 0) earlier = view.ranks[seen[id]! - 1];
      else seen[id] = index + 1;
    } else {
      earlier = rememberFirst(outside, id, rank);
      findings.add("RT107", `${rank.path}/rank_id`, { value: id, max: total - 1, count: total });
    }
    if (earlier) findings.add("RT106", `${rank.path}/rank_id`, { value: id, other: earlier.path });
  }
}

/** RT108 (warning) ranks of one AI Server in one block (A5 reference: 建议按照NPU物理连接顺序排序); RT111 unique local_id. */
export function checkServer(server: string, ranks: A5RankView[], findings: Findings): void {
  const byLocalId = new Map<number, A5RankView>();
  const ids: number[] = [];
  for (const rank of ranks) {
    if (rank.rankId !== undefined && isWhole(rank.rankId)) ids.push(rank.rankId);
    if (rank.localId === undefined || !isWhole(rank.localId)) continue;
    const earlier = rememberFirst(byLocalId, rank.localId, rank);
    if (earlier) findings.add("RT111", `${rank.path}/local_id`, { value: rank.localId, server, other: earlier.path });
  }
  ids.sort((a, b) => a - b);
  if (!isContiguous(ids)) findings.add("RT108", ranks[0]!.path, { server, ranks: formatRanges(ids) });
}

/**
 * RT124: an address used by two ranks. An EID names one port group of one die (hccn_tool), so a repeat is an error;
 * a host NIC address (IPV4/IPV6) may be shared by the NPUs behind one PCIe switch (A5 reference: "需要配置和NPU只有
 * 一跳PCIE-SW连接的网卡"), so a repeat on the same net_layer is only a warning.
 */
function checkAddressesUnique(view: A5View, findings: Findings): void {
  // One map for EIDs and one per net_layer for host addresses: keyed by the address itself, no key strings built.
  const byEid = new StringMap<A5AddressView>();
  const byLayer = new Map<number | undefined, StringMap<A5AddressView>>();
  for (const rank of view.ranks) {
    for (const level of rank.levels) {
      for (const address of level.addresses) {
        const { addr, addrType } = address;
        if (addr === undefined) continue;
        const eid = addrType === "EID" || addrType?.toUpperCase() === "EID";
        let seen = eid ? byEid : byLayer.get(level.netLayer);
        if (seen === undefined) byLayer.set(level.netLayer, (seen = new StringMap()));
        // EIDs compare without case; only one with upper-case digits pays for a lower-cased copy.
        const key = eid && eidForm(addr) === 2 ? addr.toLowerCase() : addr;
        const earlier = rememberFirst(seen, key, address);
        if (earlier === undefined || earlier.level.rank === rank) continue;
        findings.addMessage("RT124", "RT124", `${address.path}/addr`, { value: addr, other: earlier.path }, eid ? "error" : "warning");
      }
    }
  }
}
