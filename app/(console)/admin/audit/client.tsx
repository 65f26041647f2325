"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, DatePicker, Form, Input, Select, Space, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import dayjs, { type Dayjs } from "dayjs";
import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { auditQueryKey, errorText, fetchAudit } from "@/components/admin/api";
import { DateTime } from "@/components/primitives/date-time";
import { PageHeading } from "@/components/primitives/page-heading";
import { actorTypes } from "@/db/schema/audit/constants";
import type { AuditEntry, AuditPage } from "@/db/schema/audit/validation";
import { auditQueryString, type AuditSearchParams } from "./search-params";

export const auditPageSize = 50;

const actorColors = { user: "blue", token: "purple", system: "default", anonymous: "orange" } as const;

interface Filters {
  action?: string;
  actor?: string;
  actorType?: AuditSearchParams["actorType"];
  target?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

function Change({ entry }: { entry: AuditEntry }) {
  const parts: string[] = [];
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = key in before ? JSON.stringify(before[key]) : "∅";
    const to = key in after ? JSON.stringify(after[key]) : "∅";
    parts.push(`${key}: ${from} → ${to}`);
  }
  if (entry.details && typeof entry.details === "object") {
    for (const [key, value] of Object.entries(entry.details)) parts.push(`${key}=${JSON.stringify(value)}`);
  }
  if (parts.length === 0) return null;
  return (
    <Typography.Text style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}>
      {parts.map((part) => (
        <div key={part}>{part}</div>
      ))}
    </Typography.Text>
  );
}

export function AuditClient({ params, initial }: { params: AuditSearchParams; initial: AuditPage }) {
  const t = useTranslations("admin.audit");
  const router = useRouter();
  const pathname = usePathname();
  const query = auditQueryString(params);
  const apiQuery = `${query}${query ? "&" : ""}pageSize=${auditPageSize}`;
  const result = useQuery({
    queryKey: auditQueryKey(apiQuery),
    queryFn: () => fetchAudit(apiQuery),
    initialData: initial,
    placeholderData: keepPreviousData,
  });

  const go = (next: AuditSearchParams) => {
    const search = auditQueryString(next);
    router.push(search ? `${pathname}?${search}` : pathname);
  };
  const apply = (values: Filters) =>
    go({
      action: values.action?.trim() || undefined,
      actor: values.actor?.trim() || undefined,
      actorType: values.actorType,
      target: values.target?.trim() || undefined,
      from: values.range?.[0]?.toISOString(),
      to: values.range?.[1]?.toISOString(),
      page: 1,
    });

  const data = result.data ?? initial;
  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      <Form<Filters>
        layout="inline"
        key={query}
        onFinish={apply}
        initialValues={{
          action: params.action,
          actor: params.actor,
          actorType: params.actorType,
          target: params.target,
          range: params.from || params.to ? [params.from ? dayjs(params.from) : null, params.to ? dayjs(params.to) : null] : null,
        }}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="action" label={t("filterAction")}>
          <Input allowClear placeholder="auth." style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="actor" label={t("filterActor")}>
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="actorType">
          <Select allowClear aria-label={t("actor")} placeholder={t("actor")} style={{ width: 130 }} options={actorTypes.map((type) => ({ value: type, label: type }))} />
        </Form.Item>
        <Form.Item name="target" label={t("filterTarget")}>
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="range" label={t("range")}>
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t("apply")}
          </Button>
          <Button onClick={() => go({ page: 1 })}>{t("reset")}</Button>
        </Space>
      </Form>
      {result.isError && <Alert type="error" showIcon title={errorText(result.error)} action={<Button onClick={() => result.refetch()}>↻</Button>} />}
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        loading={result.isFetching && result.isPlaceholderData}
        dataSource={data.entries}
        locale={{ emptyText: t("empty") }}
        pagination={{
          current: params.page,
          pageSize: auditPageSize,
          total: data.total,
          showSizeChanger: false,
          showTotal: (total) => t("total", { count: total }),
          onChange: (page) => go({ ...params, page }),
        }}
        columns={[
          { title: t("when"), dataIndex: "at", width: 190, render: (at: string) => <DateTime value={at} /> },
          {
            title: t("actor"),
            key: "actor",
            render: (_, entry) => (
              <Space size={4}>
                <Tag color={actorColors[entry.actorType]}>{entry.actorType}</Tag>
                <span>{entry.actorName ?? (entry.actorType === "system" ? t("system") : t("anonymous"))}</span>
              </Space>
            ),
          },
          { title: t("action"), dataIndex: "action", render: (action: string) => <Typography.Text code>{action}</Typography.Text> },
          { title: t("target"), key: "target", render: (_, entry) => (entry.targetType ? `${entry.targetType} ${entry.targetId ?? ""}` : "—") },
          { title: t("from"), dataIndex: "ip", render: (ip: string | null, entry) => <span title={entry.userAgent ?? undefined}>{ip ?? "—"}</span> },
          { title: t("change"), key: "change", render: (_, entry) => <Change entry={entry} /> },
        ]}
      />
    </Space>
  );
}
