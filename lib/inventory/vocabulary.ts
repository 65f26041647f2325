/** How HCCL wires a cluster's jobs: super pod mode (rank table "1.2") or AI Server mode ("1.0"). */
export const clusterModes = ["super-pod", "ai-server"] as const;
export type ClusterMode = (typeof clusterModes)[number];

/** Server models the console knows, with how many NPUs each has and how many dies (HCCL devices) per NPU. */
export const serverModels = {
  "Atlas 800T A3": { npus: 8, diesPerNpu: 2 },
  "Atlas 800T A2": { npus: 8, diesPerNpu: 1 },
} as const;
export type ServerModel = keyof typeof serverModels;
export const serverModelNames = Object.keys(serverModels) as [ServerModel, ...ServerModel[]];

/**
 * Links between dies:
 * - `backup-rail`: the two dies of one NPU back each other's RoCE NIC (the seed's "borrowed rail", die 2k ↔ 2k+1);
 * - `hccs`: the HCCS plane inside a super pod (or inside one A2 server);
 * - `roce`: the RoCE parameter plane between super pods (or between A2 servers), rail to rail.
 * The planes are switched fabrics; their links here are the die-to-die paths worth drawing and blaming for a fault,
 * not a cabling plan.
 */
export const linkKinds = ["backup-rail", "hccs", "roce"] as const;
export type LinkKind = (typeof linkKinds)[number];
