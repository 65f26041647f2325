"use client";

import { ToolOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, InputNumber } from "antd";
import { useLocale, useTranslations } from "next-intl";
import { A5_REPAIRS, assignPorts, convertLegacyRepair, isA5Table, pairBackups, recomputeServerCount, renumberRanks, type A5RepairKey, type JsonValue, type RepairResult } from "@/lib/rank-table";

const A5_LABELS: Record<A5RepairKey, "a5Numbers" | "a5RankCount" | "a5RenumberRanks"> = { numbers: "a5Numbers", "rank-count": "a5RankCount", renumber: "a5RenumberRanks" };

/**
 * The engine's repairs of the whole table; each result is one undoable step (`onRepaired`), and says how much it
 * changed. A "2.0" table gets its own (A5_REPAIRS, lib/rank-table/repair-a5.ts, which `rankscope fix` offers too): the
 * 1.x ones address server_list.
 */
export function RepairsMenu({ table, onRepaired }: { table: JsonValue | undefined; onRepaired: (table: JsonValue) => void }) {
  const t = useTranslations("rankTables.editor");
  const { message, modal } = App.useApp();
  const lang = useLocale() === "zh-CN" ? "zh" : "en";

  const repair = (label: string, run: (value: JsonValue) => RepairResult) => {
    if (table === undefined) return;
    try {
      const result = run(table);
      onRepaired(result.table);
      message.success(t("repaired", { repair: label, count: result.changes.length }));
    } catch (error) {
      message.error((error as Error).message);
    }
  };

  const askBasePort = () => {
    let port = 16666;
    modal.confirm({
      title: t("assignPorts"),
      content: <InputNumber aria-label={t("basePort")} defaultValue={port} min={1024} max={65535} onChange={(value) => (port = value ?? port)} />,
      onOk: () => repair(t("assignPorts"), (value) => assignPorts(value, { basePort: port })),
    });
  };

  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: table !== undefined && isA5Table(table) ? A5_REPAIRS.map(({ key, run }) => (
          { key: `a5-${key}`, label: t(A5_LABELS[key]), onClick: () => repair(t(A5_LABELS[key]), run) }
        )) : [
          { key: "ranks", label: t("renumberRanks"), onClick: () => repair(t("renumberRanks"), renumberRanks) },
          { key: "backups", label: t("pairBackups"), onClick: () => repair(t("pairBackups"), pairBackups) },
          { key: "ports", label: t("assignPorts"), onClick: askBasePort },
          { key: "count", label: t("recomputeServerCount"), onClick: () => repair(t("recomputeServerCount"), recomputeServerCount) },
          { key: "legacy", label: t("convertLegacy"), onClick: () => repair(t("convertLegacy"), (value) => convertLegacyRepair(value, lang)) },
        ],
      }}
    >
      <Button icon={<ToolOutlined />}>{t("repairs")}</Button>
    </Dropdown>
  );
}
