/**
 * A "2.0" rank table for one Atlas 950 SuperPoD of N racks (a5-model.ts). The shape follows HCCL's A5 reference
 * (rank_table_config_a5.md) and MindCluster's hccl.json for Atlas 950: one rank per NPU; net_layer 0 is the rack
 * (its NPUs joined as its topology file describes, TOPO_FILE_DESC; local_id 0…63 is the NPU within the rack, inside
 * the reference's [0, 64]); net_layer 1 is the SuperPoD's switched network (CLOS). Each die of an NPU has an EID
 * address per level: ports 0–3 of the die in the rack, ports 4–7 towards the SuperPoD, one network plane per die.
 * 64 NPUs per rack is the published Atlas 950 SuperPoD figure (8,192 NPUs in 128 compute racks).
 *
 * EIDs are placeholders with the right form (32 hex digits, unique): the real ones come from hccn_tool.
 */
import type { A5Address, A5Level, A5Rank, A5RankTable } from "./a5-model";

export interface A5Template {
  /** Racks in the SuperPoD; default 1. */
  racks?: number;
  /** NPUs per rack; default 64. */
  npusPerRack?: number;
  /** Name of the SuperPoD, used in net_instance_id; default "superpod0". */
  superPodId?: string;
  /**
   * Which SuperPoD of a SuperCluster this is (default 0): part of every EID, so that the tables of a cluster's super
   * pods (one table each: a "2.0" table holds at most 65,536 ranks) never share one.
   */
  superPodIndex?: number;
  status?: "completed" | "initializing";
}

export const A5_TEMPLATE_DEFAULTS = { racks: 1, npusPerRack: 64, superPodId: "superpod0", status: "completed" } as const;

const DIES_PER_NPU = 2;
const PORTS_PER_LEVEL = 4;

function count(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be a whole number from 1 to ${max}, not ${value}`);
  return value;
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, "0");

/** A unique 32-hex-digit EID for a die's port group: super pod, rack, NPU, die and level in the low digits. */
function eid(pod: number, rack: number, npu: number, die: number, layer: number): string {
  return `000000${hex(pod, 8)}${hex(rack, 8)}${hex(npu, 4)}${hex(die, 2)}${hex(layer, 4)}`;
}

function addresses(pod: number, rack: number, npu: number, layer: number): A5Address[] {
  const list: A5Address[] = [];
  for (let die = 0; die < DIES_PER_NPU; die++) {
    const ports: string[] = [];
    for (let port = 0; port < PORTS_PER_LEVEL; port++) ports.push(`${die}/${layer * PORTS_PER_LEVEL + port}`);
    list.push({ addr_type: "EID", addr: eid(pod, rack, npu, die, layer), ports, plane_id: `plane${die}` });
  }
  return list;
}

export function generateA5Table(template: A5Template = {}): A5RankTable {
  const racks = count("racks", template.racks ?? A5_TEMPLATE_DEFAULTS.racks, 1 << 16);
  // local_id is at most 64 (A5 reference), so a rack holds at most 65 NPUs.
  const npusPerRack = count("npusPerRack", template.npusPerRack ?? A5_TEMPLATE_DEFAULTS.npusPerRack, 65);
  const superPodId = template.superPodId ?? A5_TEMPLATE_DEFAULTS.superPodId;
  const pod = template.superPodIndex === undefined ? 0 : count("superPodIndex", template.superPodIndex + 1, 1 << 16) - 1;
  const rankList: A5Rank[] = [];
  for (let rack = 0; rack < racks; rack++) {
    for (let npu = 0; npu < npusPerRack; npu++) {
      const levels: A5Level[] = [
        { net_layer: 0, net_instance_id: `${superPodId}-rack${rack}`, net_type: "TOPO_FILE_DESC", net_attr: "", rank_addr_list: addresses(pod, rack, npu, 0) },
        { net_layer: 1, net_instance_id: superPodId, net_type: "CLOS", net_attr: "", rank_addr_list: addresses(pod, rack, npu, 1) },
      ];
      rankList.push({ rank_id: rankList.length, local_id: npu, device_id: npu, level_list: levels });
    }
  }
  return { status: template.status ?? A5_TEMPLATE_DEFAULTS.status, version: "2.0", rank_count: rankList.length, rank_list: rankList };
}
