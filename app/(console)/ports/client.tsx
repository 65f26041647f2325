"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Empty, Skeleton, Space, Tabs, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { fetchPortReport, portKeys } from "@/components/ports/api";
import { PortFindings } from "@/components/ports/findings-list";
import { PortMap } from "@/components/ports/port-map";
import { PortPlanPanel } from "@/components/ports/plan-panel";
import { PortPolicyCard } from "@/components/ports/policy-card";
import { PageHeading } from "@/components/primitives/page-heading";
import { useUrlState } from "@/components/primitives/use-url-state";
import { queryOf } from "@/lib/jobs/url";
import { jobsOf } from "@/lib/ports/map";
import { portsSearchParams, type PortTab } from "@/lib/ports/url";

export function PortsClient({ cluster, canEdit }: { cluster: { slug: string; name: string } | null; canEdit: boolean }) {
  const t = useTranslations("ports");
  const [state, setState] = useUrlState(portsSearchParams, queryOf);
  const report = useQuery({
    queryKey: portKeys.report(cluster?.slug ?? ""),
    queryFn: ({ signal }) => fetchPortReport(cluster!.slug, signal),
    enabled: cluster !== null,
  });
  const jobs = useMemo(() => jobsOf(report.data?.hosts ?? []), [report.data]);

  if (!cluster) return <Empty description={t("noCluster")} />;
  const data = report.data;
  const findings = data ? (state.job === undefined ? data.findings : data.findings.filter((f) => f.parties.some((p) => p.jobId === state.job))) : [];
  const tab: PortTab = state.tab ?? "map";
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }}>
      <PageHeading
        title={t("title")}
        subtitle={data ? t("subtitle", { cluster: cluster.name, jobs: data.summary.jobs, hosts: data.summary.hosts, errors: data.summary.errors, warnings: data.summary.warnings }) : cluster.name}
      />
      {report.error && (
        <Alert type="error" showIcon title={t("loadFailed", { message: report.error.message })} action={<Button onClick={() => void report.refetch()}>{t("retry")}</Button>} />
      )}
      {!data ? (
        report.isPending && <Skeleton active paragraph={{ rows: 8 }} />
      ) : data.summary.bindings === 0 ? (
        <Empty description={t("empty")} />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(key) => setState({ tab: key === "map" ? undefined : (key as PortTab) })}
          items={[
            { key: "map", label: t("tabs.map"), children: <PortMap hosts={data.hosts} state={state} onState={setState} /> },
            {
              key: "findings",
              label: t("tabs.findings", { count: findings.length }),
              children: <PortFindings findings={findings} code={state.code} onCode={(code) => setState({ code })} />,
            },
            { key: "policy", label: t("tabs.policy"), children: <PortPolicyCard cluster={cluster.slug} policy={data.policy} stored={data.policyStored} canEdit={canEdit} /> },
            {
              key: "plan",
              label: t("tabs.plan"),
              children: canEdit ? <PortPlanPanel cluster={cluster.slug} jobs={jobs} /> : <Typography.Paragraph type="secondary">{t("viewerPlan")}</Typography.Paragraph>,
            },
          ]}
        />
      )}
    </Space>
  );
}
