"use client";

import { Input, Space, Tooltip } from "antd";
import { useTranslations } from "next-intl";
import type { Issue, JsonValue } from "@/lib/rank-table";

const SERVER_FIELDS = ["server_id", "host_ip"] as const;

/** The selected server's own fields, marked with their findings; a change is committed on blur or Enter. */
export function ServerFields({ table, server, issues, readOnly, onChange }: { table: JsonValue | undefined; server: number; issues: Map<string, Issue[]>; readOnly: boolean; onChange: (field: string, value: string | undefined) => void }) {
  const t = useTranslations("rankTables.editor");
  const entry = table && typeof table === "object" && !Array.isArray(table) && Array.isArray(table.server_list) ? table.server_list[server] : undefined;
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return null;
  return (
    <Space wrap style={{ marginBottom: 8 }}>
      {SERVER_FIELDS.map((field) => {
        const found = issues.get(`/server_list/${server}/${field}`);
        const value = typeof entry[field] === "string" ? (entry[field] as string) : entry[field] === undefined ? "" : JSON.stringify(entry[field]);
        return (
          <Tooltip key={`${server}:${field}`} title={found?.map((issue) => `${issue.code}: ${issue.message}`).join("\n")}>
            <Input
              key={`${server}:${field}:${value}`}
              size="small"
              prefix={<span style={{ opacity: 0.6 }}>{field}</span>}
              aria-label={t("serverField", { field })}
              status={found?.some((issue) => issue.severity === "error") ? "error" : found?.length ? "warning" : undefined}
              defaultValue={value}
              readOnly={readOnly}
              style={{ width: 260, fontFamily: "var(--font-mono)" }}
              onBlur={(event) => {
                const next = event.target.value.trim() || undefined;
                if (next !== (value || undefined)) onChange(field, next);
              }}
              onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLInputElement).blur()}
            />
          </Tooltip>
        );
      })}
    </Space>
  );
}
