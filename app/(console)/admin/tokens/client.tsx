"use client";

import { PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, DatePicker, Empty, Form, Input, Modal, Popconfirm, Select, Space, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import type { Dayjs } from "dayjs";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { createToken, errorText, fetchTokens, revokeToken, tokensQueryKey } from "@/components/admin/api";
import { RoleTag, useRoleOptions } from "@/components/admin/role-tag";
import { DateTime } from "@/components/primitives/date-time";
import { PageHeading } from "@/components/primitives/page-heading";
import type { CreatedToken, TokenSummary } from "@/db/schema/api-token/validation";
import { roles, type Role } from "@/lib/auth/roles";

interface NewToken {
  name: string;
  role: Role;
  expiresAt?: Dayjs | null;
}

type Status = "active" | "revoked" | "expired";
function statusOf(token: TokenSummary, now: number): Status {
  if (token.revokedAt) return "revoked";
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return "expired";
  return "active";
}
const statusColors: Record<Status, string> = { active: "green", revoked: "red", expired: "default" };

export function TokensClient({ initialTokens }: { initialTokens: TokenSummary[] }) {
  const t = useTranslations("admin");
  const tr = useTranslations("roles");
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roleOptions = useRoleOptions();
  const query = useQuery({ queryKey: tokensQueryKey, queryFn: fetchTokens, initialData: initialTokens });
  const [creating, setCreating] = useState(false);
  // The new token lives only in this state, only until the dialog is closed: it is never fetched again.
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [showCreated, setShowCreated] = useState(false);
  const [form] = Form.useForm<NewToken>();
  const [now] = useState(() => Date.now());

  const refresh = () => queryClient.invalidateQueries({ queryKey: tokensQueryKey });
  const create = useMutation({
    mutationFn: (values: NewToken) =>
      createToken({ name: values.name, role: values.role, expiresAt: values.expiresAt ? values.expiresAt.toDate().toISOString() : null }),
    onSuccess: (token) => {
      setCreating(false);
      form.resetFields();
      setCreated(token);
      setShowCreated(true);
      void refresh();
    },
    onError: (error) => message.error(errorText(error)),
  });
  const revoke = useMutation({
    mutationFn: (token: TokenSummary) => revokeToken(token.id),
    onSuccess: (token) => {
      message.success(t("tokens.revokedMessage", { name: token.name }));
      void refresh();
    },
    onError: (error) => message.error(errorText(error)),
  });

  const tokens = query.data ?? [];
  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading
        title={t("tokens.title")}
        subtitle={t("tokens.subtitle")}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t("tokens.create")}
          </Button>
        }
      />
      {query.isError && (
        <Alert type="error" showIcon title={t("loadError")} description={errorText(query.error)} action={<Button onClick={() => query.refetch()}>{t("retry")}</Button>} />
      )}
      <Typography.Text type="secondary">{t("tokens.count", { count: tokens.length })}</Typography.Text>
      <Table<TokenSummary>
        rowKey="id"
        size="small"
        dataSource={tokens}
        locale={{ emptyText: <Empty description={t("tokens.empty")} /> }}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: t("tokens.name"), dataIndex: "name", sorter: (a, b) => a.name.localeCompare(b.name), render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
          { title: t("tokens.hint"), dataIndex: "hint", render: (hint: string) => <Typography.Text code>{hint}</Typography.Text> },
          {
            title: t("tokens.role"),
            dataIndex: "role",
            filters: roles.map((role) => ({ text: tr(role), value: role })),
            onFilter: (value, token) => token.role === value,
            render: (role: Role) => <RoleTag role={role} />,
          },
          {
            title: t("tokens.status"),
            key: "status",
            filters: (["active", "revoked", "expired"] as const).map((s) => ({ text: t(`tokens.${s}`), value: s })),
            onFilter: (value, token) => statusOf(token, now) === value,
            render: (_, token) => {
              const status = statusOf(token, now);
              return <Tag color={statusColors[status]}>{t(`tokens.${status}`)}</Tag>;
            },
          },
          { title: t("tokens.created"), dataIndex: "createdAt", sorter: (a, b) => a.createdAt.localeCompare(b.createdAt), defaultSortOrder: "descend", render: (v: string) => <DateTime value={v} /> },
          { title: t("tokens.expires"), dataIndex: "expiresAt", render: (v: string | null) => <DateTime value={v} fallback={t("tokens.noExpiry")} /> },
          { title: t("tokens.lastUsed"), dataIndex: "lastUsedAt", sorter: (a, b) => (a.lastUsedAt ?? "").localeCompare(b.lastUsedAt ?? ""), render: (v: string | null) => <DateTime value={v} fallback={t("never")} /> },
          {
            title: "",
            key: "actions",
            render: (_, token) =>
              statusOf(token, now) === "active" && (
                <Popconfirm title={t("tokens.confirmRevoke", { name: token.name })} onConfirm={() => revoke.mutate(token)} okButtonProps={{ danger: true }} okText={t("tokens.revoke")} cancelText={t("cancel")}>
                  <Button size="small" danger aria-label={`${t("tokens.revoke")} ${token.name}`}>
                    {t("tokens.revoke")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <Modal title={t("tokens.create")} open={creating} onCancel={() => setCreating(false)} onOk={() => form.submit()} okText={t("tokens.create")} cancelText={t("cancel")} confirmLoading={create.isPending} destroyOnHidden>
        <Form<NewToken> form={form} layout="vertical" initialValues={{ role: "viewer" }} onFinish={(values) => create.mutate(values)}>
          <Form.Item label={t("tokens.name")} name="name" rules={[{ required: true, whitespace: true, max: 100 }]}>
            <Input placeholder={t("tokens.namePlaceholder")} autoComplete="off" />
          </Form.Item>
          <Form.Item label={t("tokens.role")} name="role" rules={[{ required: true }]}>
            <Select options={roleOptions} />
          </Form.Item>
          <Form.Item label={t("tokens.expires")} name="expiresAt">
            <DatePicker showTime placeholder={t("tokens.noExpiry")} disabledDate={(d) => d.valueOf() < Date.now()} style={{ width: "100%" }} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={created ? t("tokens.shownOnceTitle", { name: created.name }) : ""}
        open={showCreated}
        afterClose={() => setCreated(null)}
        destroyOnHidden
        closable={false}
        mask={{ closable: false }}
        footer={
          <Button type="primary" onClick={() => setShowCreated(false)}>
            {t("tokens.done")}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t("tokens.shownOnce")} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: created?.token ?? "", tooltips: [t("tokens.copy"), t("tokens.copied")] }} code data-testid="new-token" style={{ wordBreak: "break-all" }}>
          {created?.token}
        </Typography.Paragraph>
      </Modal>
    </Space>
  );
}
