"use client";

import { toConfigMap } from "@/lib/rank-table-workspace/configmap";

/** `hccl.json`, or the table's name as a file name. */
export function exportFileName(name: string | undefined): string {
  const base = (name ?? "").trim().replace(/\.jsonc?$/i, "").replace(/[\\/:*?"<>|]+/g, "_");
  return base ? `${base}.json` : "hccl.json";
}

export function configMapYaml(canonical: string, job: string, namespace: string | undefined): string {
  return toConfigMap(canonical, { job, namespace });
}
