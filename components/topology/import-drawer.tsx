"use client";

import { InboxOutlined, WarningOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Descriptions, Drawer, Popconfirm, Select, Space, Statistic, Tag, Typography, Upload } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { clustersQueryKey } from "@/components/clusters/queries";
import { fetchJson } from "@/components/primitives/fetch-json";
import type { Conflict, InventoryDiff } from "@/lib/topology/import";
import { topologyKeys } from "./query-keys";
import { useSavedRankTables } from "./use-rank-source";

const previewSchema = z.object({
  revision: z.number().int(),
  valid: z.boolean(),
  issues: z.array(z.object({ code: z.string(), severity: z.string(), path: z.string(), message: z.string(), line: z.number().optional() })),
  issueCount: z.number().int(),
  counts: z.object({ superPods: z.number(), servers: z.number(), dies: z.number(), links: z.number() }).nullable(),
  diff: z.custom<InventoryDiff>().nullable(),
});
type Preview = z.infer<typeof previewSchema>;

const LISTED = 12;

/** Inventory from a rank table: pick a file, see what would be added, changed and removed and the conflicts, write. */
export function ImportDrawer({
  cluster,
  clusterId,
  open,
  onClose,
}: {
  cluster: string;
  /** The cluster's id, for the saved rank tables that may be imported (its own and those of no cluster). */
  clusterId: number | undefined;
  open: boolean;
  onClose: () => void;
}) {
  const t = useTranslations("topology.import");
  const format = useFormatter();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { options: savedTables } = useSavedRankTables(clusterId);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const base = `/api/v1/clusters/${encodeURIComponent(cluster)}/inventory`;

  const preview = useMutation({
    mutationFn: (text: string) =>
      fetchJson(`${base}/preview`, previewSchema, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text }) }),
  });
  const apply = useMutation({
    mutationFn: ({ text, revision }: { text: string; revision: number }) =>
      fetchJson(base, z.object({ revision: z.number() }), {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text, expectedRevision: revision }),
      }),
    onSuccess: async (result) => {
      message.success(t("written", { revision: result.revision }));
      await queryClient.invalidateQueries({ queryKey: topologyKeys.cluster(cluster) });
      await queryClient.invalidateQueries({ queryKey: clustersQueryKey });
      setFile(null);
      preview.reset();
      onClose();
    },
  });

  const compare = (name: string, text: string) => {
    setFile({ name, text });
    apply.reset();
    preview.mutate(text);
  };
  const choose = async (picked: File) => compare(picked.name, await picked.text());
  const chooseSaved = async (value: string, label: string) => {
    const response = await fetch(`/api/v1/rank-tables/${value.slice("table:".length)}/export?format=json`);
    if (!response.ok) {
      message.error(t("savedFailed", { name: label }));
      return;
    }
    compare(label, await response.text());
  };

  const data: Preview | undefined = preview.data;
  const diff = data?.diff ?? null;
  const names = (ids: string[]) =>
    ids.length === 0 ? "—" : `${ids.slice(0, LISTED).join(", ")}${ids.length > LISTED ? ` ${t("andMore", { count: ids.length - LISTED })}` : ""}`;
  const losing = diff ? diff.servers.removed.length + diff.dies.removed.length + diff.superPods.removed.length : 0;

  return (
    <Drawer title={t("title")} open={open} onClose={onClose} size="large" destroyOnHidden>
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("intro")}
        </Typography.Paragraph>
        <Upload.Dragger
          accept=".json,.jsonc,application/json,text/plain"
          multiple={false}
          showUploadList={false}
          beforeUpload={(picked) => {
            void choose(picked);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{file ? file.name : t("drop")}</p>
        </Upload.Dragger>
        {savedTables.length > 0 && (
          <Select
            aria-label={t("fromSaved")}
            placeholder={t("fromSaved")}
            style={{ width: "100%" }}
            options={savedTables}
            value={null}
            onChange={(value: string) => void chooseSaved(value, savedTables.find((option) => option.value === value)?.label ?? value)}
          />
        )}
        <Typography.Link href={`${base}/rank-table`} download>
          {t("download")}
        </Typography.Link>

        {preview.isPending && <Alert type="info" showIcon title={t("previewing")} />}
        {preview.isError && <Alert type="error" showIcon title={t("previewFailed")} description={preview.error.message} />}
        {data && !data.valid && (
          <Alert
            type="error"
            showIcon
            title={t("invalid", { count: data.issues.filter((i) => i.severity === "error").length })}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {data.issues
                  .filter((issue) => issue.severity === "error")
                  .slice(0, LISTED)
                  .map((issue, i) => (
                    <li key={i}>
                      <Tag>{issue.code}</Tag>
                      {issue.line ? `${issue.line}: ` : ""}
                      {issue.message}
                    </li>
                  ))}
              </ul>
            }
          />
        )}
        {data?.valid && diff && data.counts && (
          <>
            <Descriptions
              size="small"
              bordered
              column={2}
              items={[
                { key: "pods", label: t("superPods"), children: format.number(data.counts.superPods) },
                { key: "servers", label: t("servers"), children: format.number(data.counts.servers) },
                { key: "dies", label: t("dies"), children: format.number(data.counts.dies) },
                { key: "links", label: t("links"), children: format.number(data.counts.links) },
              ]}
            />
            {diff.unchanged ? (
              <Alert type="success" showIcon title={t("unchanged")} />
            ) : (
              <Space size="large" wrap>
                <Statistic title={t("serversAdded")} value={diff.servers.added.length} />
                <Statistic title={t("serversChanged")} value={diff.servers.changed.length} />
                <Statistic title={t("serversRemoved")} value={diff.servers.removed.length} />
                <Statistic title={t("diesAdded")} value={diff.dies.added.length} />
                <Statistic title={t("diesChanged")} value={diff.dies.changed.length} />
                <Statistic title={t("diesRemoved")} value={diff.dies.removed.length} />
              </Space>
            )}
            {diff.conflicts.length > 0 && (
              <Alert
                type="warning"
                showIcon
                icon={<WarningOutlined />}
                title={t("conflicts", { count: diff.conflicts.length })}
                description={
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    {diff.conflicts.slice(0, LISTED).map((conflict, i) => (
                      <li key={i}>{describeConflict(conflict, t)}</li>
                    ))}
                  </ul>
                }
              />
            )}
            {!diff.unchanged && (
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: "sa", label: t("serversAdded"), children: names(diff.servers.added) },
                  { key: "sc", label: t("serversChanged"), children: names(diff.servers.changed.map((c) => c.serverId)) },
                  { key: "sr", label: t("serversRemoved"), children: names(diff.servers.removed) },
                  { key: "dc", label: t("diesChanged"), children: names(diff.dies.changed.map((c) => c.id)) },
                  { key: "pa", label: t("superPodsAdded"), children: names(diff.superPods.added) },
                  { key: "pr", label: t("superPodsRemoved"), children: names(diff.superPods.removed) },
                ]}
              />
            )}
            {apply.isError && <Alert type="error" showIcon title={t("writeFailed")} description={apply.error.message} />}
            <Popconfirm
              title={t("confirmTitle")}
              description={losing > 0 ? t("confirmLoss", { servers: diff.servers.removed.length, dies: diff.dies.removed.length, names: names(diff.servers.removed) }) : t("confirmNoLoss")}
              okText={t("apply")}
              okButtonProps={{ danger: losing > 0 }}
              onConfirm={() => file && apply.mutate({ text: file.text, revision: data.revision })}
            >
              <Button type="primary" danger={losing > 0} disabled={diff.unchanged || !file} loading={apply.isPending}>
                {t("apply")}
              </Button>
            </Popconfirm>
          </>
        )}
      </Space>
    </Drawer>
  );
}

function describeConflict(conflict: Conflict, t: ReturnType<typeof useTranslations<"topology.import">>): string {
  switch (conflict.kind) {
    case "device-ip-moved":
      return t("conflictIp", { ip: conflict.deviceIp, from: conflict.from, to: conflict.to });
    case "server-moved-pod":
      return t("conflictPod", { server: conflict.serverId, from: conflict.from ?? "—", to: conflict.to ?? "—" });
    case "mode-changed":
      return t("conflictMode", { from: conflict.from, to: conflict.to });
  }
}
