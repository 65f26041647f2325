import type { NodeDetails, TopologyView } from "@/lib/topology/model";
import type { ChartOverlay, OverlayMark } from "./cell-painter";

/**
 * What the graph highlights for a selected fabric subject (the URL's `hl`), as a chart overlay over the view drawn:
 * - ports: the die (or the NPU's dies), and the node chips and planes its traffic uses; the rest dimmed;
 * - impact: the dies of the servers a switch failure cuts from its plane (red) and of those it degrades (amber).
 * Null when there is nothing of it in this view.
 */
export function fabricOverlay(view: TopologyView, highlight: "ports" | "impact", details: NodeDetails): ChartOverlay | null {
  const dies = new Map<string, OverlayMark>();
  if (highlight === "impact") {
    const effect = new Map(details.impact?.servers.map((s) => [s.serverId, s.effect]) ?? []);
    for (const node of view.nodes) {
      const on = node.kind === "die" && node.serverId !== undefined ? effect.get(node.serverId) : undefined;
      // The overlay's marks say how strongly a die is hit: "suspect" is drawn red, "timeout" amber (colors.ts).
      if (on) dies.set(node.id, on === "cut" ? "suspect" : "timeout");
    }
    return dies.size > 0 ? { dies } : null;
  }
  const ports = details.planePorts;
  if (!ports) return null;
  const subject = details.node;
  for (const node of view.nodes) {
    if (node.kind === "die" && (node.id === subject.id || (subject.kind === "npu" && node.parent === subject.id))) dies.set(node.id, "member");
  }
  const fabric = new Map<string, OverlayMark>();
  for (const port of ports.bus) {
    fabric.set(port.chipKey, "member");
    fabric.set(port.planeKey, "member");
  }
  if (ports.parameter) fabric.set(ports.parameter.planeKey, "member");
  const drawn = view.nodes.some((node) => fabric.has(node.id));
  return dies.size > 0 && drawn ? { dies, fabric } : null;
}
