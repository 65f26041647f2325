import { busPlaneKey, nodeChipKey, parameterPlaneKey } from "./derive";
import type { FabricProfile, Provenance } from "./profiles";

/**
 * Which plane ports a die's traffic uses, from the cluster's hardware profile: on the 灵衢 bus, its NPU's links to
 * every node chip of the server (chip k → plane k) and that chip's uplinks into the plane; on the parameter plane,
 * the RoCE port of its NPU. Each answer carries the weakest provenance of the profile facts it rests on, so the
 * console can say "documented" or "assumed" beside it (lib/fabric/profiles.ts, sources.ts).
 */
export interface DieBusPort {
  planeKey: string;
  planeIndex: number;
  /** The node chip (SwitchInfoCfg's SwitchChipId) this plane is reached through. */
  chipKey: string;
  chipId: number;
  /** Links from the die's NPU to the chip (bus.npuLinksPerNodeChip), or null when the profile does not know. */
  npuLinks: number | null;
  /** Of those, the die's own: the NPU's links split evenly over its dies, or null when they do not split evenly. */
  dieLinks: number | null;
  /** The server's optical uplinks into the plane, shared by every die of the server. */
  serverUplinks: number | null;
  linkGbps: number | null;
  provenance: Provenance;
  /** The profile facts this port rests on, for the tooltip ("bus.chipPlane assumed, …"). */
  basis: string[];
}

export interface DieParameterPort {
  planeKey: string;
  /** The RoCE port's index on the server: the NPU's, when the server has one port per NPU; null otherwise. */
  portIndex: number | null;
  /** Dies sharing that port (the NPU's dies), or null when ports are not tied to NPUs. */
  sharedBy: number | null;
  portGbps: number | null;
  /** The parameter plane's shape, or null when the profile does not know it (drawn as "unknown"). */
  shape: string | null;
  provenance: Provenance;
  basis: string[];
}

export interface DiePlanePorts {
  profileId: string;
  bus: DieBusPort[];
  parameter: DieParameterPort | null;
  /** What could not be said, and which profile number is missing. */
  gaps: string[];
}

const strength: Record<Provenance, number> = { official: 0, published: 1, derived: 2, assumed: 3, unknown: 4 };
/** The weakest of some facts' provenances: a port is only as documented as the least documented fact it uses. */
export function weakestProvenance(provenances: readonly Provenance[]): Provenance {
  return provenances.reduce<Provenance>((worst, p) => (strength[p] > strength[worst] ? p : worst), "official");
}

type Fact = { value: unknown; provenance: Provenance };
const described = (facts: Record<string, Fact>) => ({
  provenance: weakestProvenance(Object.values(facts).map((f) => f.provenance)),
  basis: Object.entries(facts).map(([name, f]) => `${name} ${f.provenance}`),
});

/**
 * The plane ports of one die: `die.npuIndex` on a server with `npuCount` NPUs, `diesOnNpu` dies on that NPU.
 * A server outside a super pod has no bus planes (A2 servers meet on the parameter plane only).
 */
export function diePlanePorts(
  profile: FabricProfile,
  die: { serverId: string; superPodId: string | null; npuIndex: number; diesOnNpu: number; npuCount: number },
): DiePlanePorts {
  const result: DiePlanePorts = { profileId: profile.id, bus: [], parameter: null, gaps: [] };
  const bus = profile.bus;
  if (die.superPodId !== null && bus.planes.value !== 0) {
    if (bus.nodeChips.value === null || bus.chipPlane.value === null) {
      result.gaps.push(`bus ports not known: ${[bus.nodeChips.value === null ? "bus.nodeChips" : null, bus.chipPlane.value === null ? "bus.chipPlane" : null].filter(Boolean).join(", ")} unknown in profile ${profile.id}`);
    } else {
      const npuLinks = bus.npuLinksPerNodeChip.value;
      // 14 UB links per 910C over 7 chips is 2 per chip; which die drives which is not published: one each is assumed.
      const dieLinks = npuLinks !== null && die.diesOnNpu > 0 && npuLinks % die.diesOnNpu === 0 ? npuLinks / die.diesOnNpu : null;
      const facts: Record<string, Fact> = { "bus.chipPlane": bus.chipPlane, "bus.npuLinksPerNodeChip": bus.npuLinksPerNodeChip, "bus.uplinksPerServerPerPlane": bus.uplinksPerServerPerPlane };
      if (die.diesOnNpu > 1) facts["die share of the NPU's links"] = { value: dieLinks, provenance: dieLinks === null ? "unknown" : "assumed" };
      const { provenance, basis } = described(facts);
      for (let chip = 0; chip < bus.nodeChips.value; chip++) {
        result.bus.push({
          planeKey: busPlaneKey(die.superPodId, chip),
          planeIndex: chip,
          chipKey: nodeChipKey(die.serverId, chip),
          chipId: chip,
          npuLinks,
          dieLinks,
          serverUplinks: bus.uplinksPerServerPerPlane.value,
          linkGbps: bus.linkGbps.value,
          provenance,
          basis,
        });
      }
    }
  }
  const ports = profile.parameter.portsPerServer;
  if (ports.value === null) {
    result.gaps.push(`parameter port not known: parameter.portsPerServer unknown in profile ${profile.id}`);
  } else if (ports.value > 0) {
    // One RoCE port per NPU when the server has as many ports as NPUs (the A3's 8 × 400G for 8 NPUs): the NPU's dies
    // share it. That sharing is the console's assumption; the port count itself carries its own provenance.
    const perNpu = ports.value === die.npuCount;
    const facts: Record<string, Fact> = { "parameter.portsPerServer": ports };
    if (perNpu && die.diesOnNpu > 1) facts["dies share their NPU's port"] = { value: true, provenance: "assumed" };
    const { provenance, basis } = described(facts);
    result.parameter = {
      planeKey: parameterPlaneKey,
      portIndex: perNpu ? die.npuIndex : null,
      sharedBy: perNpu ? die.diesOnNpu : null,
      portGbps: profile.parameter.portGbps.value,
      shape: profile.parameter.shape.value,
      provenance,
      basis,
    };
  }
  return result;
}
