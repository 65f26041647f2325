import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedDie, TopologyIndex } from "./inventory-index";
import type { NodeDetails, NodeKind } from "./model";
import { crumbsFor, dieNode, npuNode, podLabel, podNode, serverNode, TopologyNotFoundError } from "./view";

const noBox = { x: 0, y: 0, width: 0, height: 0 };

type Peer = { id: string; kind: NodeKind; label: string };

/** Links of a set of dies to dies outside it, grouped by kind and by the peer at the given level. */
function groupLinks(index: TopologyIndex, dies: IndexedDie[], peerOf: (die: IndexedDie) => Peer): NodeDetails["links"] {
  const inside = new Set(dies.map((die) => die.id));
  const groups = new Map<string, NodeDetails["links"][number]>();
  for (const die of dies) {
    for (const link of index.dieLinks.get(die.id) ?? []) {
      if (inside.has(link.peer.id)) continue;
      const peer = peerOf(link.peer);
      const key = `${link.kind}\u0000${peer.kind}\u0000${peer.id}`;
      const entry = groups.get(key);
      if (entry) entry.count++;
      else groups.set(key, { kind: link.kind, peer: peer.id, peerKind: peer.kind, peerLabel: peer.label, count: 1 });
    }
  }
  const order: LinkKind[] = ["backup-rail", "hccs", "roce"];
  return [...groups.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.peer.localeCompare(b.peer, "en", { numeric: true }));
}

const asDie = (die: IndexedDie): Peer => ({ id: die.id, kind: "die", label: `${die.server.id} · die ${die.spec.deviceId}` });
const asServer = (die: IndexedDie): Peer => ({ id: die.server.id, kind: "server", label: die.server.id });
const asPod = (die: IndexedDie): Peer =>
  die.server.pod ? { id: die.server.pod.id, kind: "superpod", label: podLabel(die.server.pod) } : asServer(die);

/** Everything the details panel shows for one node. Throws TopologyNotFoundError for an unknown node. */
export function nodeDetails(index: TopologyIndex, kind: NodeKind, id: string): NodeDetails {
  const inventoryTable = (dies: IndexedDie[]) => [{ name: "inventory", ranks: dies.map((die) => die.rank) }];
  if (kind === "superpod") {
    const pod = index.podById.get(id);
    if (!pod) throw new TopologyNotFoundError("node", id);
    const dies = pod.servers.flatMap((server) => server.dies);
    return { node: podNode(pod, noBox), path: crumbsFor(index, null, pod), links: groupLinks(index, dies, asPod), rankTables: inventoryTable(dies), faults: null };
  }
  if (kind === "server") {
    const server = index.serverById.get(id);
    if (!server) throw new TopologyNotFoundError("node", id);
    return {
      node: serverNode(server, noBox, server.pod?.id ?? null),
      path: crumbsFor(index, server, null),
      links: groupLinks(index, server.dies, asServer),
      rankTables: inventoryTable(server.dies),
      faults: null,
    };
  }
  if (kind === "npu") {
    const match = /^(.*)\/npu(\d+)$/.exec(id);
    const server = match ? index.serverById.get(match[1]!) : undefined;
    const npu = server?.npus.find((n) => n.npuIndex === Number(match![2]));
    if (!server || !npu) throw new TopologyNotFoundError("node", id);
    return {
      node: npuNode(server, npu.npuIndex, npu.id, noBox, npu.dies.length),
      path: crumbsFor(index, server, null),
      links: groupLinks(index, npu.dies, asDie),
      rankTables: inventoryTable(npu.dies),
      faults: null,
    };
  }
  const die = index.dieById.get(id);
  if (!die) throw new TopologyNotFoundError("node", id);
  return {
    node: dieNode(die, noBox, `${die.server.id}/npu${die.npuIndex}`),
    path: crumbsFor(index, die.server, null),
    links: groupLinks(index, [die], asDie),
    rankTables: inventoryTable([die]),
    faults: null,
  };
}
