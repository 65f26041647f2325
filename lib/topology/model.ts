import { z } from "zod";
import { faultLevels } from "@/lib/faults/levels";
import { faultKinds, targetKinds } from "@/lib/faults/model";
import { clusterModes, linkKinds } from "@/lib/inventory/vocabulary";

/**
 * What `GET /api/v1/clusters/{id}/topology` answers: the nodes and links one view draws, with their boxes already
 * laid out (see layout.ts and layout-*.ts), so the browser only paints. A node's `id` is what `id=` takes to drill into it.
 */
export const topologyLevels = ["cluster", "superpod", "row", "rack", "server"] as const;
export type TopologyLevel = (typeof topologyLevels)[number];

/**
 * `plane`: one bus plane of a super pod's fabric (lib/fabric), drawn as a bus bar beside the pod's servers, or the
 * RoCE parameter plane (id `param`, its leaf and spine tiers `param/leaf:<pod>` and `param/spine` when the profile
 * knows the shape). `switch`: a server's node-side bus chip (SwitchInfoCfg's SwitchChipId) or a bus switch of a plane.
 * `rack`: consecutive servers of a super pod (or of a cluster of plain servers) too many to draw one by one, drawn as
 * one aggregate (lib/topology/racks.ts); `row`: consecutive racks of plain servers too many to draw one by one
 * (lib/topology/rows.ts).
 */
export const nodeKinds = ["superpod", "row", "rack", "server", "npu", "die", "plane", "switch"] as const;
export type NodeKind = (typeof nodeKinds)[number];

/** Filled by the fault events (issue 7); until then every element is `unknown`, never shown as healthy. */
export const healthStates = ["healthy", "degraded", "faulty", "unknown"] as const;
export type Health = (typeof healthStates)[number];

const box = { x: z.number(), y: z.number(), width: z.number(), height: z.number() };

/**
 * How many dies of a node (or view) are in each health state: an aggregate's health as a distribution, so that 3
 * faulty dies of 131,072 still show (lib/topology/health-overlay.ts). The parts always sum to the node's dies.
 */
export const healthCountsSchema = z.object({
  healthy: z.number().int().nonnegative(),
  degraded: z.number().int().nonnegative(),
  faulty: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
});
export type HealthCounts = z.infer<typeof healthCountsSchema>;

/** The most hops a neighbourhood expands (lib/topology/neighbourhood.ts). */
export const MAX_HOPS = 3;

export const topologyNodeSchema = z.object({
  id: z.string(),
  kind: z.enum(nodeKinds),
  label: z.string(),
  /** The node that contains this one in the view (a die's NPU, an NPU's server, a server's super pod), or null. */
  parent: z.string().nullable(),
  health: z.enum(healthStates),
  /** The node's box in view units, top-left corner first; boxes of siblings never overlap. */
  ...box,
  /** Whether `level=<kind>&id=<id>` opens a view of this node. */
  drillable: z.boolean(),
  counts: z.object({ servers: z.number().int(), npus: z.number().int(), dies: z.number().int() }).optional(),
  /** Its dies per health state (super pods, servers, NPUs): how an aggregate shows where the trouble is. */
  healthCounts: healthCountsSchema.optional(),
  /** Drawn as one cell standing for what it holds (too many to draw): its contents are in the view one level down. */
  aggregated: z.boolean().optional(),
  /**
   * With a job drawn over an aggregated view (`job=` of the topology API): how many of the aggregate's dies the job
   * has, and how many of those are faulty or degraded; absent on an aggregate the job has no die in.
   */
  job: z.object({ dies: z.number().int().nonnegative(), faulty: z.number().int().nonnegative(), degraded: z.number().int().nonnegative() }).optional(),
  /** A rack's super pod (null among plain servers) is `superPodId`; a server's rack in a view of racks. */
  rackId: z.string().optional(),
  /** In a neighbourhood: the fewest hops from the seed (0 for the seed's own dies and server). */
  hop: z.number().int().nonnegative().optional(),
  /** In a neighbourhood, a server drawn with only the dies reached: how many of its dies are drawn. */
  drawnDies: z.number().int().nonnegative().optional(),
  superPodId: z.string().nullable().optional(),
  serverId: z.string().optional(),
  hostIp: z.string().nullable().optional(),
  model: z.string().optional(),
  npuIndex: z.number().int().optional(),
  deviceId: z.number().int().optional(),
  dieIndex: z.number().int().optional(),
  superDeviceId: z.number().int().nullable().optional(),
  deviceIp: z.string().nullable().optional(),
  devicePort: z.number().int().nullable().optional(),
  backupDeviceIp: z.string().nullable().optional(),
  backupDevicePort: z.number().int().nullable().optional(),
  hostPort: z.number().int().nullable().optional(),
  /** The die's rank in a rank table built from the inventory (servers and dies in inventory order). */
  rank: z.number().int().optional(),
  /** A bus plane's index in its super pod (node chip k of every server uplinks to plane k). */
  planeIndex: z.number().int().optional(),
  /** A bus plane's bus switches. */
  switches: z.number().int().optional(),
  /** A bus plane's optical uplinks from the pod's servers, summed over every server (the aggregated link). */
  uplinks: z.number().int().optional(),
  /** A plane's kind: a super pod's bus plane, or the parameter plane (or one of its tiers). */
  planeKind: z.enum(["bus", "parameter"]).optional(),
  /** The parameter plane's shape (`leaf-spine`), or null when the profile does not know it; `all-to-all` for a bus plane. */
  shape: z.string().nullable().optional(),
  /** A switch's kind, its index (the chip id on its server, or its place in its plane) and its plane. */
  switchKind: z.enum(["node-chip", "bus-switch"]).optional(),
  switchIndex: z.number().int().optional(),
  planeKey: z.string().optional(),
  /** A switch's ports, when the profile knows them. */
  ports: z.number().int().nullable().optional(),
});
export type TopologyNode = z.infer<typeof topologyNodeSchema>;

export const topologyLinkSchema = z.object({
  source: z.string(),
  target: z.string(),
  kind: z.enum(linkKinds),
  /** How many die-to-die paths of the inventory this drawn link stands for (1 between two dies). */
  count: z.number().int().positive(),
});
export type TopologyLink = z.infer<typeof topologyLinkSchema>;

export const crumbSchema = z.object({ level: z.enum(topologyLevels), id: z.string().nullable(), label: z.string() });
export type Crumb = z.infer<typeof crumbSchema>;

export const topologyViewSchema = z.object({
  cluster: z.object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    mode: z.enum(clusterModes),
    inventoryRevision: z.number().int(),
  }),
  level: z.enum(topologyLevels),
  id: z.string().nullable(),
  /** From the cluster down to this view, for breadcrumbs. */
  path: z.array(crumbSchema),
  bounds: z.object({ width: z.number(), height: z.number() }),
  counts: z.object({ superPods: z.number().int(), servers: z.number().int(), npus: z.number().int(), dies: z.number().int() }),
  nodes: z.array(topologyNodeSchema),
  links: z.array(topologyLinkSchema),
  /** Links that leave the view (to other servers or super pods), per kind and peer, for the details panel. */
  external: z.array(z.object({ kind: z.enum(linkKinds), peer: z.string(), peerKind: z.enum(nodeKinds), count: z.number().int() })),
  /** The dies of the whole view's scope (the cluster, the super pod, the server) per health state. */
  health: healthCountsSchema.optional(),
  /** A server view expanded along links (`hops` > 0): what was expanded, and how much was left undrawn. */
  neighbourhood: z
    .object({
      /** The die expanded from, or null for the whole server. */
      from: z.string().nullable(),
      hops: z.number().int().min(1).max(MAX_HOPS),
      kinds: z.array(z.enum(linkKinds)),
      /** Dies within `hops` (the seed's included), as far as counted (see `reachedCapped`). */
      reached: z.number().int(),
      /** True when there were more than the count bound: `reached` is a lower bound. */
      reachedCapped: z.boolean(),
      /** Dies drawn (at most the cap), and servers they are in. */
      drawn: z.number().int(),
      servers: z.number().int(),
      /** Dies reached but not drawn (the cap): `reached` − `drawn`. */
      omitted: z.number().int(),
      cap: z.number().int(),
    })
    .optional(),
});
export type TopologyView = z.infer<typeof topologyViewSchema>;

export const searchFields = ["any", "serverId", "hostIp", "deviceIp", "superDeviceId", "rank"] as const;
export type SearchField = (typeof searchFields)[number];

export const searchHitSchema = z.object({
  kind: z.enum(["server", "die"]),
  id: z.string(),
  label: z.string(),
  field: z.enum(searchFields),
  value: z.string(),
  superPodId: z.string().nullable(),
  serverId: z.string(),
  /** The server's rack, when its super pod (or the plain servers) is drawn by rack. */
  rackId: z.string().optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;
export const searchResultSchema = z.object({ hits: z.array(searchHitSchema), total: z.number().int() });
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Where a node has ranks: the table built from the inventory (`table: null`) or a saved rank table's latest revision. */
export const rankMembershipSchema = z.object({
  table: z.object({ id: z.number().int(), name: z.string(), revision: z.number().int(), clusterId: z.number().int().nullable() }).nullable(),
  /** How many of the node's dies the table gives a rank, and the lowest and highest of those ranks. */
  count: z.number().int().positive(),
  min: z.number().int(),
  max: z.number().int(),
  /** The ranks themselves, ascending, when there are few (a die's, an NPU's); empty for more. */
  ranks: z.array(z.number().int()),
});
export type RankMembership = z.infer<typeof rankMembershipSchema>;

export const recentFaultSchema = z.object({
  id: z.string(),
  targetKind: z.enum(targetKinds),
  /** The event's stable target key (`die:<server>/<device>`, `link:<a>~<b>`, …). */
  targetKey: z.string(),
  kind: z.enum(faultKinds),
  level: z.enum(faultLevels),
  code: z.string().nullable(),
  beganAt: z.number(),
  /** Null while the fault is open. */
  endedAt: z.number().nullable(),
});
export type RecentFault = z.infer<typeof recentFaultSchema>;

export const recentFaultsSchema = z.object({
  /** Events that began since then (ms) count as recent, and older ones that are still open. */
  since: z.number(),
  total: z.number().int(),
  open: z.number().int(),
  /** The newest of them first, at most a handful. */
  events: z.array(recentFaultSchema),
  /** The fault timeline's filter that shows these events: its `target` text and the swimlanes to open. */
  timeline: z.object({ target: z.string().nullable(), open: z.array(z.string()) }),
});
export type RecentFaults = z.infer<typeof recentFaultsSchema>;

const provenance = z.enum(["official", "published", "derived", "assumed", "unknown"]);

/** Which plane ports a die's traffic uses (lib/fabric/die-ports.ts), from the cluster's hardware profile. */
export const planePortsSchema = z.object({
  profileId: z.string(),
  bus: z.array(
    z.object({
      planeKey: z.string(),
      planeIndex: z.number().int(),
      chipKey: z.string(),
      chipId: z.number().int(),
      npuLinks: z.number().int().nullable(),
      dieLinks: z.number().int().nullable(),
      serverUplinks: z.number().int().nullable(),
      linkGbps: z.number().int().nullable(),
      provenance,
      basis: z.array(z.string()),
    }),
  ),
  parameter: z
    .object({
      planeKey: z.string(),
      portIndex: z.number().int().nullable(),
      sharedBy: z.number().int().nullable(),
      portGbps: z.number().int().nullable(),
      shape: z.string().nullable(),
      provenance,
      basis: z.array(z.string()),
    })
    .nullable(),
  gaps: z.array(z.string()),
});
export type PlanePorts = z.infer<typeof planePortsSchema>;

/** What a switch failure takes down (lib/fabric/impact.ts switchBlastRadius), with the jobs running there. */
export const switchImpactSchema = z.object({
  switchKey: z.string(),
  planeKey: z.string(),
  servers: z.array(z.object({ serverId: z.string(), effect: z.enum(["cut", "degraded"]), busShareLost: z.number().nullable() })),
  cutDies: z.number().int(),
  degradedDies: z.number().int(),
  /** Jobs with ranks on the affected servers, the worst effect first. */
  jobs: z.array(z.object({ id: z.number().int(), name: z.string(), namespace: z.string(), effect: z.enum(["cut", "degraded"]), ranks: z.number().int() })),
});
export type SwitchImpact = z.infer<typeof switchImpactSchema>;

export const nodeDetailsSchema = z.object({
  node: topologyNodeSchema,
  path: z.array(crumbSchema),
  /** Links of this node grouped by kind and peer (a die's peers are dies; a server's or super pod's are aggregated). */
  links: z.array(z.object({ kind: z.enum(linkKinds), peer: z.string(), peerKind: z.enum(nodeKinds), peerLabel: z.string(), count: z.number().int() })),
  /** The table built from the inventory first, then every saved rank table of this cluster (or of none) that ranks the node. */
  rankTables: z.array(rankMembershipSchema),
  /** Fault events of the node and everything in it; null while no fault event was ever recorded for the cluster. */
  faults: recentFaultsSchema.nullable(),
  /** A die's (or NPU's first die's) plane ports, when the cluster has a hardware profile. */
  planePorts: planePortsSchema.nullable().optional(),
  /** A switch's blast radius. */
  impact: switchImpactSchema.nullable().optional(),
});
export type NodeDetails = z.infer<typeof nodeDetailsSchema>;
