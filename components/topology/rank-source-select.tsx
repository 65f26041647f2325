"use client";

import { Alert, Select } from "antd";
import { useTranslations } from "next-intl";
import { useSavedRankTables } from "./use-rank-source";

/**
 * The choice of what numbers the dies (the URL's `ranks`): the inventory, a saved rank table, the file opened here.
 * It, not the page, subscribes to the saved tables' list (see useSavedRankTables).
 */
export function RankSourceSelect({
  value,
  clusterId,
  fileName,
  loading,
  onChange,
}: {
  value: string;
  clusterId: number | undefined;
  fileName: string | null;
  loading: boolean;
  onChange: (value: string) => void;
}) {
  const t = useTranslations("topology");
  const { options } = useSavedRankTables(clusterId);
  return (
    <Select
      aria-label={t("ranks.label")}
      value={value}
      loading={loading}
      style={{ width: 220 }}
      onChange={onChange}
      options={[
        { value: "inventory", label: t("ranks.inventory") },
        ...(options.length ? [{ label: t("ranks.saved"), options }] : []),
        ...(fileName !== null ? [{ value: "file", label: fileName }] : []),
      ]}
    />
  );
}

/** Says that the saved table chosen could not be read as a rank table, by its name. */
export function SavedRanksFailed({ savedId, clusterId }: { savedId: number; clusterId: number | undefined }) {
  const t = useTranslations("topology");
  const { nameOf } = useSavedRankTables(clusterId);
  return <Alert type="warning" showIcon title={t("ranks.savedFailed", { name: nameOf(savedId) })} />;
}
