import { diePlanePorts } from "@/lib/fabric/die-ports";
import { parseSwitchKey } from "@/lib/fabric/derive";
import { switchBlastRadius, type BlastRadius } from "@/lib/fabric/impact";
import type { FabricProfile } from "@/lib/fabric/profiles";
import { targetKey } from "@/lib/faults/model";
import { linkKinds, type LinkKind } from "@/lib/inventory/vocabulary";
import { naturalCompare } from "@/lib/natural-order";
import type { IndexedDie, TopologyIndex } from "./inventory-index";
import type { NodeDetails, NodeKind, RankMembership, RecentFaults } from "./model";
import { dieEnd, subjectOf, type Peer, type Subject } from "./node-subject";
import type { RanksByIndexDie } from "./ranks";

/** What the details panel calls recent: a week of fault events (older ones still open count too). */
export const recentFaultWindowMs = 7 * 86_400_000;
/** How many recent fault events the panel lists; the total says how many there are. */
export const recentFaultLimit = 10;
/** Up to this many ranks a membership lists one by one; above, the panel shows the range. */
const listedRanks = 8;

/** Links of a set of dies to dies outside it, grouped by kind and by the peer at the given level. */
function groupLinks(index: TopologyIndex, dies: IndexedDie[], peerOf: (die: IndexedDie) => Peer): NodeDetails["links"] {
  const inside = new Set(dies.map((die) => die.id));
  const groups = new Map<string, NodeDetails["links"][number]>();
  for (const die of dies) {
    for (const link of index.linksOf(die)) {
      if (inside.has(link.peer.id)) continue;
      const peer = peerOf(link.peer);
      const key = `${link.kind}\u0000${peer.kind}\u0000${peer.id}`;
      const entry = groups.get(key);
      if (entry) entry.count++;
      else groups.set(key, { kind: link.kind, peer: peer.id, peerKind: peer.kind, peerLabel: peer.label, count: 1 });
    }
  }
  const order: readonly LinkKind[] = linkKinds;
  return [...groups.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || naturalCompare(a.peer, b.peer));
}

/** Which fault events belong to a node: those on these targets, and links with a die of `linkEnds` at either end. */
export interface FaultScope {
  targetKeys: string[];
  linkEnds: string[];
  timeline: RecentFaults["timeline"];
}

/** The fault events of a node are those on it and on anything in it, links between its dies included. */
export function faultScopeOf(index: TopologyIndex, kind: NodeKind, id: string): FaultScope {
  const subject = subjectOf(index, kind, id);
  return {
    targetKeys: [...subject.ownTargets, ...subject.dies.map((die) => targetKey({ kind: "die", serverId: die.server.id, deviceId: die.spec.deviceId }))],
    linkEnds: subject.dies.map(dieEnd),
    timeline: subject.timeline,
  };
}

/** A saved rank table's latest revision, read as the ranks it gives the index's dies (lib/topology/ranks.ts). */
export interface SavedRankTable {
  table: NonNullable<RankMembership["table"]>;
  ranks: RanksByIndexDie;
}

function membership(table: RankMembership["table"], ranks: number[]): RankMembership | null {
  if (ranks.length === 0) return null;
  const sorted = [...ranks].sort((a, b) => a - b);
  return { table, count: sorted.length, min: sorted[0]!, max: sorted[sorted.length - 1]!, ranks: sorted.length <= listedRanks ? sorted : [] };
}

/** The plane ports of a die, or of an NPU's first die (its dies share its ports but for the split of its bus links). */
function planePortsOf(subject: Subject, kind: NodeKind, profile: FabricProfile | null | undefined): NodeDetails["planePorts"] {
  if (!profile || (kind !== "die" && kind !== "npu")) return null;
  const die = subject.dies[0];
  if (!die) return null;
  const npu = die.server.npus.find((n) => n.npuIndex === die.npuIndex);
  return diePlanePorts(profile, {
    serverId: die.server.id,
    superPodId: die.server.pod?.id ?? null,
    npuIndex: die.npuIndex,
    diesOnNpu: npu?.dies.length ?? 1,
    npuCount: die.server.npus.length,
  });
}

/** Everything the details panel shows for one node. Throws TopologyNotFoundError for an unknown node. */
export function nodeDetails(
  index: TopologyIndex,
  kind: NodeKind,
  id: string,
  context: { savedTables?: readonly SavedRankTable[]; faults?: RecentFaults | null; profile?: FabricProfile | null } = {},
): NodeDetails {
  const subject = subjectOf(index, kind, id);
  const saved = (context.savedTables ?? []).map(({ table, ranks }) =>
    membership(
      table,
      subject.dies.flatMap((die) => {
        const rank = ranks.rankAt(die.rank);
        return rank === undefined ? [] : [rank];
      }),
    ),
  );
  const rankTables = [membership(null, subject.dies.map((die) => die.rank)), ...saved].filter((m): m is RankMembership => m !== null);
  return {
    node: subject.node,
    path: subject.path,
    links: groupLinks(index, subject.dies, subject.peerOf),
    rankTables,
    faults: context.faults ?? null,
    planePorts: planePortsOf(subject, kind, context.profile),
  };
}

/**
 * What a switch of the view takes down if it fails (lib/fabric/impact.ts switchBlastRadius) over the servers of its
 * super pod, from the stored fabric's shape (`planes` of the pod, each server's uplinks into a plane); null for a
 * key that names no switch of a super pod. Jobs are the caller's to add (they live in the database).
 */
export function switchImpactOf(index: TopologyIndex, id: string, fabric: { planes: number; uplinksPerServerPerPlane: number | null }): BlastRadius | null {
  const ref = parseSwitchKey(id);
  if (!ref) return null;
  const pod = ref.kind === "node-chip" ? index.serverById.get(ref.serverId)?.pod : index.podById.get(ref.superPodId);
  if (!pod) return null;
  return switchBlastRadius(ref, id, { superPodId: pod.id, servers: pod.servers.map((server) => ({ serverId: server.id, dies: server.dieCount })) }, fabric);
}
