"use client";

import { useMemo } from "react";
import { useClusters } from "@/components/clusters/use-clusters";
import type { Lang, ValidationReport } from "@/lib/rank-table";
import { hardwareFit, type HardwareFitFinding } from "@/lib/rank-table/hardware-fit";
import type { ClusterLinkValue } from "./cluster-link";

/**
 * CL001 for the table being edited (lib/rank-table/hardware-fit.ts): its layout, as the live report says it, against
 * the server models of the linked cluster (from the clusters list, the same query the link picker uses). Follows
 * edits of `version` and changes of the link at once, in the page's language; undefined when it fits or is unlinked.
 */
export function useHardwareFit(report: ValidationReport | undefined, link: ClusterLinkValue, lang: Lang): HardwareFitFinding | undefined {
  const clusters = useClusters({ enabled: link.clusterId !== null });
  const cluster = link.clusterId === null ? undefined : clusters.data?.find((candidate) => candidate.id === link.clusterId);
  const version = report?.version;
  const mode = report?.mode;
  const layout = report?.layout;
  return useMemo(() => {
    if (cluster === undefined || version === undefined || mode === undefined) return undefined;
    return hardwareFit({ version, mode, layout }, cluster.name, Object.keys(cluster.serversByModel), lang);
  }, [cluster, version, mode, layout, lang]);
}
