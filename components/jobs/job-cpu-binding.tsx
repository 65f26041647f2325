"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Flex, InputNumber, List, Radio, Skeleton, Tag, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { memo, useDeferredValue, useState } from "react";
import { affinityKeys, fetchJobAffinity } from "@/components/affinity/api";
import { EnvLine, Findings } from "@/components/affinity/results";
import { useBilingual } from "@/components/faults/use-bilingual";
import { formatCpuList } from "@/lib/affinity/cpu-list";
import type { JobAffinityGroup, JobAffinityView } from "@/lib/affinity/job-plan";
import { affinityQuery } from "@/lib/affinity/url";

/** Servers without a layout listed per page. */
const WITHOUT_LAYOUT_PAGE = 10;

function GroupCard({ group, view }: { group: JobAffinityGroup; view: JobAffinityView }) {
  const t = useTranslations("jobs.cpuBinding");
  const pick = useBilingual();
  const { check, plan, planError } = group;
  const npus = formatCpuList(group.npus);
  const workbench = affinityQuery({ cluster: view.cluster, server: group.servers[0], tab: "plan", npus, reserve: view.options.reserve, mode: view.options.mode });
  return (
    <Card
      size="small"
      data-testid="cpu-binding-group"
      data-key={group.key}
      title={
        <Flex gap={8} wrap align="center">
          <span>{group.model}</span>
          {group.partOfModel && <Tag>{t("serversDiffer")}</Tag>}
          <Typography.Text type="secondary">{t("groupServers", { count: group.servers.length, list: group.servers.join(", "), npus })}</Typography.Text>
        </Flex>
      }
      extra={<Link href={`/affinity?${workbench}`}>{t("openWorkbench")}</Link>}
    >
      <Flex vertical gap={12}>
        {check && (
          <Flex vertical gap={4}>
            <Typography.Text strong>{t("currentChecked", { errors: check.errors, warnings: check.warnings })}</Typography.Text>
            <Findings findings={check.findings} />
          </Flex>
        )}
        {plan && (
          <>
            <EnvLine text={plan.env} title={t("proposed")} />
            <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="cpu-binding-explanations">
              {plan.explanations.map((explanation, index) => (
                <li key={index}>{pick(explanation)}</li>
              ))}
            </ul>
          </>
        )}
        {planError && <Alert type="warning" showIcon title={t("noPlan", { message: planError.message })} />}
      </Flex>
    </Card>
  );
}

/**
 * The job's CPU binding: its CPU_AFFINITY_CONF checked on each server model's stored CPU layout (or each server where
 * a model's servers differ), a proposed value per group to export, and the servers that have no layout yet.
 */
export const JobCpuBinding = memo(function JobCpuBinding({ jobId }: { jobId: number }) {
  const t = useTranslations("jobs.cpuBinding");
  const [reserve, setReserve] = useState(0);
  const [mode, setMode] = useState<1 | 2>(1);
  const options = { reserve, mode };
  const query = useQuery({ queryKey: affinityKeys.job(jobId, options), queryFn: ({ signal }) => fetchJobAffinity(jobId, options, signal), placeholderData: (previous) => previous });
  // Rendered in a deferred render, in slices, not in the query's notification task (issue 21: no task over 50 ms).
  const view = useDeferredValue(query.data);
  return (
    <Flex vertical gap={12} data-testid="job-cpu-binding">
      <Flex gap={16} wrap align="center">
        {view && (
          <Typography.Text data-testid="cpu-binding-current">
            {view.value === null ? t("noValue") : <>CPU_AFFINITY_CONF=<Typography.Text code>{view.value}</Typography.Text></>}
            {view.visibleDevices !== null && (
              <>
                {" "}
                ASCEND_RT_VISIBLE_DEVICES=<Typography.Text code>{view.visibleDevices}</Typography.Text>
              </>
            )}
          </Typography.Text>
        )}
        <Flex gap={8} align="center">
          <Typography.Text>{t("reserve")}</Typography.Text>
          <InputNumber aria-label={t("reserve")} min={0} max={64} value={reserve} onChange={(n) => setReserve(n ?? 0)} size="small" />
        </Flex>
        <Radio.Group size="small" value={mode} onChange={(e) => setMode(e.target.value as 1 | 2)} options={[{ value: 1, label: "mode:1" }, { value: 2, label: "mode:2" }]} />
      </Flex>
      {query.isError ? (
        <Alert type="error" showIcon title={t("failed", { message: query.error.message })} action={<Button size="small" onClick={() => void query.refetch()}>{t("retry")}</Button>} />
      ) : !view ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : view.groups.length === 0 && view.withoutLayout.length === 0 ? (
        <Typography.Text type="secondary">{t("noServers")}</Typography.Text>
      ) : (
        <>
          {view.groups.map((group) => (
            <GroupCard key={group.key} group={group} view={view} />
          ))}
          {view.withoutLayout.length > 0 && (
            <Card size="small" title={t("withoutLayout", { count: view.withoutLayout.length })} data-testid="cpu-binding-without-layout">
              {/* A page at a time: a job over 2,048 servers without layouts rendered 2,048 items with a link each in
                  one task of 0.3-1 s when the answer came (issue 21). */}
              <List
                size="small"
                dataSource={[...view.withoutLayout]}
                pagination={{ pageSize: WITHOUT_LAYOUT_PAGE, hideOnSinglePage: true, size: "small", showSizeChanger: false }}
                renderItem={(server) => (
                  <List.Item>
                    <span>
                      {server.serverId} · {server.model}
                    </span>
                    <Link href={`/affinity?${affinityQuery({ cluster: view.cluster, server: server.serverId })}`}>{t("addLayout")}</Link>
                  </List.Item>
                )}
              />
            </Card>
          )}
          {view.env !== "" && <EnvLine text={view.env} title={t("exportAll")} />}
        </>
      )}
    </Flex>
  );
});
