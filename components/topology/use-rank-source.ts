"use client";

import { useQuery } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { getRankTable, listRankTables, rankTableKey, rankTablesKey } from "@/components/rank-tables/api";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { ranksFromRankTable, type RankAssignment } from "@/lib/topology/ranks";

/** The dies' ranks of a saved table; a table that is not a rank table fails the query, which the page reports. */
function selectRanks(table: RankTableDetail): RankAssignment {
  const assignment = ranksFromRankTable(table.text);
  if (!assignment) throw new Error("not a rank table");
  return assignment;
}

export type NamedRanks = RankAssignment & { name: string };

/**
 * What numbers the topology's dies (the URL's `ranks`: the inventory, a saved rank table of this cluster or of no
 * cluster, or a file opened in the browser): the choices, the one chosen, and the opening of a file, which moves
 * the URL to `ranks=file` through `onFile`.
 */
export function useRankSource(ranksParam: string, clusterId: number | undefined, onFile: () => void) {
  const t = useTranslations("topology");
  const { message } = App.useApp();
  const [fileRanks, setFileRanks] = useState<NamedRanks | null>(null);
  const savedTables = useQuery({ queryKey: rankTablesKey, queryFn: listRankTables, staleTime: 60_000, retry: false });
  const savedId = ranksParam.startsWith("table:") ? Number(ranksParam.slice("table:".length)) : null;
  const savedRanks = useQuery({
    queryKey: rankTableKey(savedId ?? 0),
    queryFn: () => getRankTable(savedId!),
    enabled: savedId !== null,
    staleTime: 60_000,
    select: selectRanks,
  });

  const loadRankFile = async (file: File) => {
    const text = await file.text();
    const assignment = ranksFromRankTable(text);
    if (!assignment) {
      message.error(t("ranks.notARankTable", { name: file.name }));
      return;
    }
    setFileRanks({ ...assignment, name: file.name });
    onFile();
    message.success(t("ranks.loaded", { name: file.name, count: assignment.devices }));
  };

  const savedName = savedTables.data?.find((table) => table.id === savedId)?.name ?? `#${savedId}`;
  const chosen: NamedRanks | null = ranksParam === "file" ? fileRanks : savedId !== null && savedRanks.data ? { ...savedRanks.data, name: savedName } : null;
  const tableOptions = (savedTables.data ?? [])
    .filter((table) => table.clusterId === null || table.clusterId === clusterId)
    .map((table) => ({ value: `table:${table.id}`, label: table.name }));
  return { fileRanks, savedId, savedName, savedRanks, chosen, tableOptions, loadRankFile };
}
