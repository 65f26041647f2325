import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { Health } from "@/lib/topology/model";

/** The console's colours that mean something (spec/ui.md): the same in the graph, the legend and the panels. */
export const HEALTH_COLORS: Record<"light" | "dark", Record<Health, string>> = {
  light: { healthy: "#52c41a", degraded: "#faad14", faulty: "#ff4d4f", unknown: "#bfbfbf" },
  dark: { healthy: "#49aa19", degraded: "#d89614", faulty: "#dc4446", unknown: "#5a5a5a" },
};
export const LINK_STYLES: Record<LinkKind, { color: string; type: "solid" | "dashed"; width: number }> = {
  "backup-rail": { color: "#c41d7f", type: "dashed", width: 2.5 },
  hccs: { color: "#08979c", type: "solid", width: 2 },
  roce: { color: "#1d39c4", type: "solid", width: 3 },
  "net-layer-0": { color: "#389e0d", type: "solid", width: 2 },
  "net-layer-1": { color: "#d46b08", type: "solid", width: 3 },
};
/** A job overlay's marks: diagnosis suspects red, ranks that timed out amber. */
export const OVERLAY_COLORS: Record<"suspect" | "timeout", string> = { suspect: "#cf1322", timeout: "#d48806" };
