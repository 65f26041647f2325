/**
 * Rank tables of version "2.0": the layout of the Atlas 350 / 850 / 950 SuperPoD generation ("A5"; HCCL calls its
 * chips Ascend 950PR / 950DT). Sources:
 * - HCCL's reference: `hicann/hccl@09300b70df9a031339f08e5f2ca06d7bf294d009:docs/zh/user_guide/cluster_info_config/
 *   rank_table_config_a5.md` (field table with ranges, two examples: IPv4 with 2 AI Servers × 2 NPUs, EID with a
 *   host-NIC level). Cited below as "A5 reference".
 * - MindCluster: `Ascend/mind-cluster@dfa1b8a5c66c57768c06c83dc6d6665efe626b3b:docs/en/scheduling/api/
 *   hccl.json_file_description.md`, section "Atlas 350 PCIe card, Atlas 850 Series Hardware Products, Atlas 950
 *   SuperPoD" (what Ascend Operator writes: EID addresses, plane ids). Cited as "MindCluster hccl.json".
 * - HCOMM's example `examples/01_communicators/02_one_device_per_process_rank_table/rank_table_v2.json`
 *   (`libochao-huawei/hcomm@8958adbf`): rank_count and rank_id as JSON numbers.
 * Unlike "1.0"/"1.2", numbers are JSON numbers here; a number written as a string is the mistake (RT103).
 */

export const A5_VERSION = "2.0";

/** Known keys per level, in the canonical export's order (the A5 reference's first example). */
export const A5_ROOT_FIELDS = ["status", "version", "rank_count", "rank_list"] as const;
export const A5_RANK_FIELDS = ["rank_id", "local_id", "device_id", "device_port", "host_port", "level_list"] as const;
export const A5_LEVEL_FIELDS = ["net_layer", "net_instance_id", "net_type", "net_attr", "rank_addr_list"] as const;
export const A5_ADDRESS_FIELDS = ["addr_type", "addr", "ports", "plane_id"] as const;

/** Fields whose values are JSON numbers in "2.0" (every other known scalar is a string). */
export const A5_NUMBER_FIELDS: ReadonlySet<string> = new Set(["rank_count", "rank_id", "local_id", "device_id", "device_port", "host_port", "net_layer"]);

/** Limits of the A5 reference's field table. */
export const A5_LIMITS = {
  /** rank_count: [1, 65536]. */
  maxRanks: 65536,
  /** local_id and device_id: [0, 64]. */
  maxLocalId: 64,
  /** level_list: at most 8 entries; net_layer: [0, 7]. */
  maxLevels: 8,
  maxNetLayer: 7,
  /** net_instance_id: at most 1024 characters. */
  maxNetInstanceIdLength: 1024,
  /** rank_addr_list: at most 24 entries ("each die configured separately"). */
  maxAddresses: 24,
  /** addr: 1–256 characters. */
  maxAddrLength: 256,
  /** ports: at most 16 per address, each at most 32 characters. */
  maxPorts: 16,
  maxPortLength: 32,
} as const;

/** net_type: "TOPO_FILE_DESC" (described by the topology file; the only value at net_layer 0) or "CLOS". */
export const A5_NET_TYPES: ReadonlySet<string> = new Set(["TOPO_FILE_DESC", "CLOS"]);
/** addr_type: EID (from hccn_tool), or IPv4 / IPv6 of a host NIC (written "IPV4" in both sources' examples). */
export const A5_ADDRESS_TYPES: ReadonlySet<string> = new Set(["EID", "IPV4", "IPV6"]);

export interface A5Address {
  addr_type: string;
  addr: string;
  ports: string[];
  plane_id?: string;
}

export interface A5Level {
  net_layer: number;
  net_instance_id: string;
  net_type: string;
  net_attr: string;
  rank_addr_list: A5Address[];
}

export interface A5Rank {
  rank_id: number;
  local_id: number;
  device_id: number;
  device_port?: number;
  host_port?: number;
  level_list: A5Level[];
}

export interface A5RankTable {
  status: "completed" | "initializing";
  version: "2.0";
  rank_count: number;
  rank_list: A5Rank[];
}
