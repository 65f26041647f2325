"use client";

import { useQuery } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { getRankTable, listRankTables, rankTableKey, rankTablesKey } from "@/components/rank-tables/api";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { ranksFromRankTable, type RankAssignment } from "@/lib/topology/ranks";

export type NamedRanks = RankAssignment & { name: string };

/** The dies' ranks of a saved table; a table that is not a rank table fails the query, which the page reports. */
function selectRanks(table: RankTableDetail): NamedRanks {
  const assignment = ranksFromRankTable(table.text);
  if (!assignment) throw new Error("not a rank table");
  return { ...assignment, name: table.name };
}

/** The URL's `table:<id>`, or null for the inventory or a file. */
const savedTableId = (ranksParam: string): number | null => (ranksParam.startsWith("table:") ? Number(ranksParam.slice("table:".length)) : null);

/**
 * The saved rank tables that may number this cluster's dies (of this cluster or of none), as choices (`table:<id>`).
 * Only the controls that list them subscribe to the list, so its answer does not render the whole topology page.
 */
export function useSavedRankTables(clusterId: number | undefined) {
  const savedTables = useQuery({ queryKey: rankTablesKey, queryFn: listRankTables, staleTime: 60_000, retry: false });
  const options = (savedTables.data ?? [])
    .filter((table) => table.clusterId === null || table.clusterId === clusterId)
    .map((table) => ({ value: `table:${table.id}`, label: table.name }));
  const nameOf = (id: number) => savedTables.data?.find((table) => table.id === id)?.name ?? `#${id}`;
  return { options, nameOf };
}

/**
 * What numbers the topology's dies (the URL's `ranks`: the inventory, a saved rank table of this cluster or of no
 * cluster, or a file opened in the browser): the one chosen, and the opening of a file, which moves the URL to
 * `ranks=file` through `onFile`.
 */
export function useRankSource(ranksParam: string, onFile: () => void) {
  const t = useTranslations("topology");
  const { message } = App.useApp();
  const [fileRanks, setFileRanks] = useState<NamedRanks | null>(null);
  const savedId = savedTableId(ranksParam);
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

  const chosen: NamedRanks | null = ranksParam === "file" ? fileRanks : savedId !== null ? (savedRanks.data ?? null) : null;
  return { fileRanks, savedId, savedRanks, chosen, loadRankFile };
}
