/**
 * Whether a rank table's layout suits the chips of the cluster it is linked to: the mistake users report most after
 * a hardware upgrade (a "1.0" table kept for a new Atlas 950 cluster, a "1.2" super pod table copied to A2). This
 * needs the cluster, so it is a cluster check (spec: "Checks that need the rest of the cluster … get codes of their
 * own in the cluster checks (CL…)"): CL001.
 *
 * Which layout each generation reads (ascend-facts §7 "Rank-table versions per product", from the HCCL docs
 * `cluster_info_config/rank_table_config_{910,a2,a3,a5}.md` and MindCluster's `pkg/ranktable/factory.go`):
 * - Atlas A2: "1.0" (the legacy template is documented for the Atlas training series only);
 * - Atlas A3: "1.0" (AI Server mode) or "1.2" (super pod mode);
 * - Atlas 350/850/950 ("A5"): "2.0" only; HCCL rejects any other version there with EI0014.
 */
import type { LocalizedText } from "./messages";
import type { Lang, Severity, TableLayout, TableMode } from "./model";

export type ChipGeneration = "A2" | "A3" | "A5";

/** The generation of each server model the inventory knows (db/schema/server: servers_model_known). */
const GENERATION_OF_MODEL: Readonly<Record<string, ChipGeneration>> = {
  "Atlas 800T A2": "A2",
  "Atlas 800T A3": "A3",
  "Atlas 850": "A5",
  "Atlas 950": "A5",
  "Atlas 350": "A5",
};

export function generationOfModel(model: string): ChipGeneration | undefined {
  return GENERATION_OF_MODEL[model] ?? Object.entries(GENERATION_OF_MODEL).find(([prefix]) => model.startsWith(prefix))?.[1];
}

export interface HardwareFitFinding {
  code: "CL001";
  severity: Severity;
  message: string;
}

/** What the table is, as the stored summary of a revision says it. */
export interface LayoutSummary {
  version: string | null;
  mode: TableMode;
  layout?: TableLayout;
}

const NAMES: Record<ChipGeneration, string> = { A2: "Atlas A2", A3: "Atlas A3", A5: "Atlas 350/850/950" };

function layoutName(table: LayoutSummary): string {
  if (table.layout !== undefined && table.layout !== table.version) return table.layout;
  return table.version === null ? "without version" : `"${table.version}"`;
}

function mismatch(table: LayoutSummary, generations: ReadonlySet<ChipGeneration>): { severity: Severity; reason: LocalizedText } | undefined {
  const isA5Table = table.version === "2.0" && (table.layout === undefined || table.layout === "2.0");
  if (generations.has("A5") && !isA5Table) {
    return { severity: "error", reason: { en: "HCCL on these chips reads only version \"2.0\" and rejects this table (EI0014)", zh: "这些芯片上的 HCCL 只读取 version \"2.0\"，会拒绝此表（EI0014）" } };
  }
  if (isA5Table && !generations.has("A5")) {
    return { severity: "error", reason: { en: "version \"2.0\" is the Atlas 350/850/950 layout; HCCL on these chips rejects it (EI0014)", zh: "version \"2.0\" 是 Atlas 350/850/950 的格式；这些芯片上的 HCCL 会拒绝它（EI0014）" } };
  }
  if (table.mode === "super-pod" && table.version === "1.2" && !generations.has("A3")) {
    return { severity: "warning", reason: { en: "super pod mode (\"1.2\" with super_pod_list) needs Atlas A3 SuperPoD hardware; use \"1.0\"", zh: "超节点模式（带 super_pod_list 的 \"1.2\"）需要 Atlas A3 超节点硬件；请使用 \"1.0\"" } };
  }
  return undefined;
}

/**
 * CL001 for a table linked to a cluster whose servers are of the given models, or undefined when the layout suits
 * them (or the cluster has no servers of a known model).
 */
export function hardwareFit(table: LayoutSummary, clusterName: string, serverModels: readonly string[], lang: Lang): HardwareFitFinding | undefined {
  const generations = new Set<ChipGeneration>();
  for (const model of serverModels) {
    const generation = generationOfModel(model);
    if (generation !== undefined) generations.add(generation);
  }
  if (generations.size === 0) return undefined;
  const found = mismatch(table, generations);
  if (found === undefined) return undefined;
  const hardware = [...generations].sort().map((generation) => NAMES[generation]).join(", ");
  const message = lang === "zh"
    ? `格式 ${layoutName(table)} 不适用于集群 ${clusterName}（${hardware}）：${found.reason.zh}`
    : `Layout ${layoutName(table)} does not suit cluster ${clusterName} (${hardware}): ${found.reason.en}`;
  return { code: "CL001", severity: found.severity, message };
}
