"use client";

import { toConfigMap } from "@/lib/rank-table-workspace/configmap";

export function downloadText(content: string, fileName: string, type: string): void {
  downloadBlob(new Blob([content], { type }), fileName);
}

/** Saves a Blob as a file. Its URL is revoked 10 s later: the browser may still be reading a large table's parts. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `hccl.json`, or the table's name as a file name. */
export function exportFileName(name: string | undefined): string {
  const base = (name ?? "").trim().replace(/\.jsonc?$/i, "").replace(/[\\/:*?"<>|]+/g, "_");
  return base ? `${base}.json` : "hccl.json";
}

export function configMapYaml(canonical: string, job: string, namespace: string | undefined): string {
  return toConfigMap(canonical, { job, namespace });
}
