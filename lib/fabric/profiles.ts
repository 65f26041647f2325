import { z } from "zod";
import { fabricSources } from "./sources";

/**
 * A hardware profile: how a generation's super pod fabric is built (the 灵衢 / UB bus planes and their switches, how
 * servers attach to them, the RoCE parameter plane), with the provenance of every number (lib/fabric/sources.ts).
 * Unknown numbers are null and the derivation (derive.ts) draws nothing from them, saying which were missing.
 */
export const provenances = ["official", "published", "derived", "assumed", "unknown"] as const;
export type Provenance = (typeof provenances)[number];

interface LooseFact {
  value: unknown;
  provenance: Provenance;
  source: string | null;
}

function fact<T extends z.ZodType>(value: T) {
  return z
    .object({ value: value.nullable(), provenance: z.enum(provenances), source: z.string().min(1).max(600).nullable() })
    .refine((f) => ((f as LooseFact).value === null) === (f.provenance === "unknown"), {
      message: "a value is null exactly when its provenance is unknown",
    })
    .refine((f) => f.provenance === "unknown" || f.source !== null, { message: "every known value names its source" });
}

const count = fact(z.number().int().min(0).max(1_000_000));

/** How a server's bus switch chips join the planes: chip k of every server uplinks to plane k. */
export const chipPlaneRules = ["chip-k-to-plane-k"] as const;
export const parameterShapes = ["leaf-spine"] as const;

export const fabricProfileIdPattern = /^[a-z0-9][a-z0-9-]{0,47}$/;

export const fabricProfileSchema = z
  .object({
    id: z.string().regex(fabricProfileIdPattern),
    name: z.string().min(1).max(120),
    generation: z.enum(["A2", "A3", "A5"]),
    /** Inventory server models (lib/inventory/vocabulary.ts) this profile is the default for. */
    serverModels: z.array(z.string().min(1)).max(8),
    serversPerSuperPod: count,
    npusPerServer: count,
    bus: z.object({
      /** Independent bus planes per super pod (0: no bus between servers). */
      planes: count,
      /** Bus switches (bus-cabinet devices) per plane. */
      switchesPerPlane: count,
      /** Switch chips inside one bus switch. */
      chipsPerSwitch: count,
      /** Bus switch chips on each server (the node-side, first-tier switches SwitchInfoCfg reports on). */
      nodeChips: count,
      /** Ports of one node-side chip; SwitchInfoCfg's SwitchPortId counts from 0 below this. */
      portsPerNodeChip: count,
      /** Optical bus ports from one server to one plane (one to each of the plane's switches when equal). */
      uplinksPerServerPerPlane: count,
      /** Links from one NPU to one node-side chip. */
      npuLinksPerNodeChip: count,
      chipPlane: fact(z.enum(chipPlaneRules)),
      linkGbps: count,
    }),
    parameter: z.object({
      shape: fact(z.enum(parameterShapes)),
      /** RoCE ports per server, one per NPU when equal to npusPerServer. */
      portsPerServer: count,
      portGbps: count,
    }),
  })
  .superRefine((p, ctx) => {
    const { planes, nodeChips, chipPlane, uplinksPerServerPerPlane, switchesPerPlane } = p.bus;
    if (chipPlane.value === "chip-k-to-plane-k" && planes.value !== null && nodeChips.value !== null && planes.value !== nodeChips.value) {
      ctx.addIssue({ code: "custom", path: ["bus", "nodeChips"], message: "chip k to plane k needs as many node chips as planes" });
    }
    if (uplinksPerServerPerPlane.value !== null && switchesPerPlane.value !== null && uplinksPerServerPerPlane.value > 0 && switchesPerPlane.value > 0) {
      if (uplinksPerServerPerPlane.value % switchesPerPlane.value !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["bus", "uplinksPerServerPerPlane"],
          message: "a server's uplinks to a plane must spread evenly over the plane's switches",
        });
      }
    }
  });
export type FabricProfile = z.infer<typeof fabricProfileSchema>;

const unknown = { value: null, provenance: "unknown", source: null } as const;
/** Everything of a bus but its plane count, unknown: for profiles whose bus is absent or unpublished. */
const unknownBusShape = {
  switchesPerPlane: unknown,
  chipsPerSwitch: unknown,
  nodeChips: unknown,
  portsPerNodeChip: unknown,
  uplinksPerServerPerPlane: unknown,
  npuLinksPerNodeChip: unknown,
  chipPlane: unknown,
  linkGbps: unknown,
} as const;
const s = fabricSources;

/**
 * Atlas 900 A3 SuperPoD (CloudMatrix 384). Bus: 7 planes × 8 switches = 56 bus devices; every server has 7 node-side
 * chips of 48 ports and 56 × 400G bus ports, 8 per plane, one to each switch of the plane (2,688 links = 48 × 56).
 */
const atlas900A3: FabricProfile = {
  id: "atlas-900-a3-superpod",
  name: "Atlas 900 A3 SuperPoD",
  generation: "A3",
  serverModels: ["Atlas 800T A3"],
  serversPerSuperPod: { value: 48, provenance: "official", source: s.volcanoSuperPodSize },
  npusPerServer: { value: 8, provenance: "official", source: s.affinity },
  bus: {
    planes: { value: 7, provenance: "published", source: s.cm384Wiring },
    switchesPerPlane: { value: 8, provenance: "derived", source: `56 bus devices ÷ 7 planes (${s.cm384Wiring})` },
    chipsPerSwitch: {
      value: 2,
      provenance: "assumed",
      source: `112 second-tier UB switch chips reported for CM384 ÷ 56 bus devices; the chip count is not in a stored source (${s.cm384Paper})`,
    },
    nodeChips: { value: 7, provenance: "official", source: `NUM_CHIP 7 in the ${s.lqdcmiHeader}; seven L1 UB switches per node (${s.cm384Paper})` },
    portsPerNodeChip: { value: 48, provenance: "official", source: `NUM_PORTS 48 in the ${s.lqdcmiHeader}` },
    uplinksPerServerPerPlane: {
      value: 8,
      provenance: "derived",
      source: `56 × 400G bus ports per node ÷ 7 planes; 2,688 links ÷ 48 nodes ÷ 56 devices = one link per node and device (${s.cm384Wiring})`,
    },
    npuLinksPerNodeChip: {
      value: 2,
      provenance: "derived",
      source: `fourteen 400 Gbps UB interfaces per Ascend 910C ÷ 7 node chips (${s.cm384Planes})`,
    },
    chipPlane: {
      value: "chip-k-to-plane-k",
      provenance: "assumed",
      source: `7 node chips and 7 independent planes: chip k taken to uplink to plane k (not stated in a stored source; ${s.cm384Paper})`,
    },
    linkGbps: { value: 400, provenance: "published", source: s.cm384Wiring },
  },
  parameter: {
    shape: unknown,
    portsPerServer: { value: 8, provenance: "published", source: s.cm384Wiring },
    portGbps: { value: 400, provenance: "published", source: `${s.cm384Wiring}; up to 400 Gbps RDMA per NPU (${s.cm384Planes})` },
  },
};

/** Atlas 800T A2 servers: no bus between servers (HCCS stays inside a server); servers meet on the RoCE plane only. */
const atlas800TA2: FabricProfile = {
  id: "atlas-800t-a2-cluster",
  name: "Atlas 800T A2 cluster",
  generation: "A2",
  serverModels: ["Atlas 800T A2"],
  serversPerSuperPod: unknown,
  npusPerServer: { value: 8, provenance: "official", source: s.affinity },
  bus: {
    planes: {
      value: 0,
      provenance: "derived",
      source: "A2 rank tables are version 1.0 without super pods, and HCCL_INTER_HCCS_DISABLE (HCCS between servers) is A3 only (HCCL rank_table_config_a2.md; HCCL environment variables)",
    },
    ...unknownBusShape,
  },
  parameter: {
    shape: unknown,
    portsPerServer: { value: 8, provenance: "assumed", source: "one RoCE NIC per NPU (device_ip per die in HCCL's A2 rank table)" },
    portGbps: unknown,
  },
};

/** Atlas 950 SuperPoD (A5): only the super pod's size is published; the planes exist (rank table 2.0 `plane_id`). */
const atlas950: FabricProfile = {
  id: "atlas-950-superpod",
  name: "Atlas 950 SuperPoD (A5)",
  generation: "A5",
  serverModels: [],
  serversPerSuperPod: unknown,
  npusPerServer: unknown,
  bus: {
    planes: unknown,
    ...unknownBusShape,
  },
  parameter: { shape: unknown, portsPerServer: unknown, portGbps: unknown },
};

/** The shipped profiles, validated once at load (a typo in a number's provenance fails every test). */
export const shippedProfiles: readonly FabricProfile[] = [atlas900A3, atlas800TA2, atlas950].map((p) => fabricProfileSchema.parse(p));

export function findProfile(id: string): FabricProfile | null {
  return shippedProfiles.find((p) => p.id === id) ?? null;
}

/** The profile a cluster gets when none is chosen: the one shipped for its servers' model, else none. */
export function defaultProfileFor(serverModelsInCluster: Iterable<string>): FabricProfile | null {
  for (const model of serverModelsInCluster) {
    const profile = shippedProfiles.find((p) => p.serverModels.includes(model));
    if (profile) return profile;
  }
  return null;
}

/** The known numbers of a profile and where each comes from, flattened for a table (path, value, provenance, source). */
export function profileFacts(profile: FabricProfile): { path: string; value: string | number | null; provenance: Provenance; source: string | null }[] {
  const rows: { path: string; value: string | number | null; provenance: Provenance; source: string | null }[] = [];
  const visit = (value: unknown, path: string) => {
    if (value && typeof value === "object" && "provenance" in value) {
      const f = value as { value: string | number | null; provenance: Provenance; source: string | null };
      rows.push({ path, value: f.value, provenance: f.provenance, source: f.source });
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) visit(child, path ? `${path}.${key}` : key);
    }
  };
  visit({ serversPerSuperPod: profile.serversPerSuperPod, npusPerServer: profile.npusPerServer, bus: profile.bus, parameter: profile.parameter }, "");
  return rows;
}
