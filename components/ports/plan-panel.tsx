"use client";

import { CheckCircleOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Collapse, Empty, Popconfirm, Select, Space, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useBilingual } from "@/components/faults/use-bilingual";
import type { PortChange } from "@/lib/ports/planner";
import { portKeys, postPortPlan, type ClusterPortPlan } from "./api";
import { PortFindings } from "./findings-list";

/**
 * "Plan": a dry run of the cluster's port plan (running jobs stay unless chosen to move), previewed per job (the
 * changes per host and rank, its env lines, its patched rank table and ConfigMap) with the whole diff, then applied
 * on confirmation. Editors only: the page does not render it for viewers.
 */
export function PortPlanPanel({ cluster, jobs }: { cluster: string; jobs: readonly [number, string][] }) {
  const t = useTranslations("ports.plan");
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [move, setMove] = useState<number[]>([]);
  const [preview, setPreview] = useState<ClusterPortPlan | null>(null);
  const dryRun = useMutation({ mutationFn: () => postPortPlan(cluster, { move, apply: false }), onSuccess: setPreview });
  const apply = useMutation({
    mutationFn: () => postPortPlan(cluster, { move, apply: true }),
    onSuccess: async (result) => {
      setPreview(null);
      message.success(t("applied", { jobs: result.applied.length, changes: result.changes.length }));
      await queryClient.invalidateQueries({ queryKey: portKeys.all });
      await queryClient.invalidateQueries({ queryKey: ["jobs"] });
    },
  });
  const changedJobs = preview ? [...new Set(preview.changes.map((c) => c.jobName))] : [];
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t("intro")}
      </Typography.Paragraph>
      <Space wrap>
        <Select<number[]>
          mode="multiple"
          aria-label={t("move")}
          placeholder={t("move")}
          style={{ minWidth: 320 }}
          value={move}
          onChange={(value) => {
            setMove(value);
            setPreview(null);
          }}
          options={jobs.map(([value, label]) => ({ value, label }))}
          showSearch={{ optionFilterProp: "label" }}
        />
        <Button type="primary" icon={<ThunderboltOutlined />} loading={dryRun.isPending} onClick={() => dryRun.mutate()}>
          {t("run")}
        </Button>
      </Space>
      {dryRun.error && <Alert type="error" showIcon title={t("failed", { message: dryRun.error.message })} action={<Button onClick={() => dryRun.mutate()}>{t("retry")}</Button>} />}
      {apply.error && <Alert type="error" showIcon title={t("failed", { message: apply.error.message })} />}
      {preview && <PlanPreview plan={preview} />}
      {preview && preview.changes.length > 0 && (
        <Popconfirm
          title={t("confirmTitle")}
          description={t("confirm", { changes: preview.changes.length, jobs: changedJobs.join(", ") })}
          okText={t("apply")}
          cancelText={t("cancel")}
          onConfirm={() => apply.mutate()}
        >
          <Button type="primary" danger icon={<CheckCircleOutlined />} loading={apply.isPending}>
            {t("apply")}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

function PlanPreview({ plan }: { plan: ClusterPortPlan }) {
  const t = useTranslations("ports.plan");
  const text = useBilingual();
  if (plan.changes.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("nothing")} />;
  const errors = plan.findings.filter((f) => f.severity === "error").length;
  const byJob = new Map<number, PortChange[]>();
  for (const c of plan.changes) byJob.set(c.jobId, [...(byJob.get(c.jobId) ?? []), c]);
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }} role="region" aria-label={t("preview")}>
      <Alert
        type={errors > 0 ? "warning" : "info"}
        showIcon
        title={t("summary", { changes: plan.changes.length, jobs: byJob.size })}
        description={t("remaining", { findings: plan.findings.length, errors })}
      />
      <Collapse
        defaultActiveKey={plan.jobs.slice(0, 3).map((j) => String(j.id))}
        items={plan.jobs.map((job) => ({
          key: String(job.id),
          label: t("jobHeading", { job: job.name, changes: byJob.get(job.id)?.length ?? 0 }),
          children: (
            <Space orientation="vertical" size={8} style={{ width: "100%" }}>
              <Table<PortChange & { key: number }>
                size="small"
                aria-label={t("changesOf", { job: job.name })}
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                dataSource={(byJob.get(job.id) ?? []).map((c, key) => ({ ...c, key }))}
                columns={[
                  { title: t("columns.where"), key: "where", render: (_, c) => (c.serverId ? `${c.serverId}${c.rank !== null ? ` · rank ${c.rank}` : ""}` : t("jobWide")) },
                  { title: t("columns.field"), dataIndex: "field" },
                  { title: t("columns.from"), dataIndex: "from", render: (v: string | null) => v ?? t("unset") },
                  { title: t("columns.to"), dataIndex: "to", render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
                  { title: t("columns.reason"), key: "reason", render: (_, c) => text(c.reason) },
                ]}
              />
              <Typography.Text strong>{t("env")}</Typography.Text>
              <Typography.Paragraph copyable={{ text: job.env }} style={{ margin: 0 }}>
                <pre style={{ margin: 0 }} aria-label={t("envOf", { job: job.name })}>
                  {job.env || t("noEnv")}
                </pre>
              </Typography.Paragraph>
              {job.rankTable && (
                <Collapse
                  size="small"
                  items={[
                    { key: "table", label: t("rankTable"), children: <pre style={{ margin: 0, maxHeight: 320, overflow: "auto" }}>{job.rankTable}</pre> },
                    ...(job.configMap ? [{ key: "cm", label: t("configMap"), children: <pre style={{ margin: 0, maxHeight: 320, overflow: "auto" }}>{job.configMap}</pre> }] : []),
                  ]}
                />
              )}
            </Space>
          ),
        }))}
      />
      <Typography.Text strong>{t("diff")}</Typography.Text>
      <pre aria-label={t("diff")} style={{ margin: 0, maxHeight: 360, overflow: "auto" }}>
        {text(plan.diff)}
      </pre>
      {plan.findings.length > 0 && (
        <Collapse size="small" items={[{ key: "left", label: t("left", { count: plan.findings.length }), children: <PortFindings findings={plan.findings} pageSize={10} /> }]} />
      )}
    </Space>
  );
}
