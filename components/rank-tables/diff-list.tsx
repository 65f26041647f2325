"use client";

import { Table, Tag } from "antd";
import { useTranslations } from "next-intl";
import type { DiffEntry, TableDiff } from "@/lib/rank-table-workspace/diff";

function where(entry: DiffEntry): string {
  switch (entry.kind) {
    case "field":
      return entry.scope === "table" ? "/" : entry.scope === "server" ? entry.serverId : `${entry.serverId} / ${entry.deviceId}`;
    case "server-added":
    case "server-removed":
    case "server-moved":
      return entry.serverId;
    case "device-added":
    case "device-removed":
      return `${entry.serverId} / ${entry.deviceId}`;
    case "super-pod-added":
    case "super-pod-removed":
      return entry.superPodId;
  }
}

/** A structural diff as a table: what changed, where (server / die), before and after. */
export function DiffList({ diff, beforeLabel, afterLabel, height }: { diff: TableDiff; beforeLabel: string; afterLabel: string; height: number }) {
  const t = useTranslations("rankTables.diff");
  const rows = diff.entries.map((entry, index) => ({ entry, key: index }));
  return (
    <Table
      size="small"
      aria-label={t("label")}
      virtual={rows.length > 100}
      scroll={{ y: height }}
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: t("none") }}
      columns={[
        { title: t("change"), key: "kind", width: 150, render: (_, { entry }) => <Tag color={entry.kind.endsWith("added") ? "green" : entry.kind.endsWith("removed") ? "red" : "blue"}>{t(`kind.${entry.kind}`)}</Tag> },
        { title: t("where"), key: "where", width: 200, render: (_, { entry }) => <code>{where(entry)}</code> },
        { title: t("field"), key: "field", width: 150, render: (_, { entry }) => (entry.kind === "field" ? <code>{entry.field}</code> : entry.kind === "server-added" || entry.kind === "server-removed" ? t("dies", { count: entry.devices }) : "") },
        { title: beforeLabel, key: "before", render: (_, { entry }) => (entry.kind === "field" || entry.kind === "server-moved" ? <code>{entry.before ?? "—"}</code> : "") },
        { title: afterLabel, key: "after", render: (_, { entry }) => (entry.kind === "field" || entry.kind === "server-moved" ? <code>{entry.after ?? "—"}</code> : "") },
      ]}
    />
  );
}
