/**
 * How HCCL wires a cluster's jobs: super pod mode (rank table "1.2", or a "2.0" table whose ranks share a net_layer 1
 * network) or AI Server mode ("1.0").
 */
export const clusterModes = ["super-pod", "ai-server"] as const;
export type ClusterMode = (typeof clusterModes)[number];

/** Server models the console knows, with how many NPUs each has and how many dies (HCCL devices) per NPU. */
export const serverModels = {
  "Atlas 800T A3": { npus: 8, diesPerNpu: 2 },
  "Atlas 800T A2": { npus: 8, diesPerNpu: 1 },
  /**
   * An AI Server of the Atlas 350/850/950 generation ("A5", rank table "2.0"): the ranks sharing one net_layer 0
   * instance (a rack of 64 NPUs in an Atlas 950 SuperPoD). "2.0" gives one rank per NPU, so the inventory records
   * one die per NPU, its device_id and local_id as HCCL's A5 reference has them ([0, 64]).
   */
  "Atlas 950": { npus: 64, diesPerNpu: 1 },
} as const;
export type ServerModel = keyof typeof serverModels;
export const serverModelNames = Object.keys(serverModels) as [ServerModel, ...ServerModel[]];

/**
 * Links between dies:
 * - `backup-rail`: the two dies of one NPU back each other's RoCE NIC (the seed's "borrowed rail", die 2k ↔ 2k+1);
 * - `hccs`: the HCCS plane inside a super pod (or inside one A2 server);
 * - `roce`: the RoCE parameter plane between super pods (or between A2 servers), rail to rail;
 * - `net-layer-0`, `net-layer-1` ("2.0" tables): a rank's network levels as its table lists them: level 0 inside an
 *   AI Server (the NPUs its topology file joins, drawn as a ring in local_id order), level 1 between the AI Servers
 *   of one net_layer 1 instance (a SuperPoD: the same local_id of neighbouring servers).
 * The planes are switched fabrics; their links here are the die-to-die paths worth drawing and blaming for a fault,
 * not a cabling plan.
 */
export const linkKinds = ["backup-rail", "hccs", "roce", "net-layer-0", "net-layer-1"] as const;
export type LinkKind = (typeof linkKinds)[number];

const A5_LINK_KINDS: readonly LinkKind[] = ["net-layer-0", "net-layer-1"];

/**
 * The link kinds a view of a cluster can show (for its legend): the "2.0" network levels when its servers are Atlas
 * 950 or its links are levels, the 1.x planes otherwise.
 */
export function linkKindsOf(models: Iterable<string | undefined>, kinds: Iterable<LinkKind>): readonly LinkKind[] {
  for (const model of models) if (model === "Atlas 950") return A5_LINK_KINDS;
  for (const kind of kinds) if (A5_LINK_KINDS.includes(kind)) return A5_LINK_KINDS;
  return linkKinds.filter((kind) => !A5_LINK_KINDS.includes(kind));
}
