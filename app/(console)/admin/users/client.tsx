"use client";

import { PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tag, Tooltip, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { createUser, errorText, fetchUsers, unlockUser, updateUser, usersQueryKey } from "@/components/admin/api";
import { RoleTag, useRoleOptions } from "@/components/admin/role-tag";
import { useCurrentUser } from "@/components/auth/current-user";
import { DateTime } from "@/components/primitives/date-time";
import { PageHeading } from "@/components/primitives/page-heading";
import type { UserSummary } from "@/db/schema/user/validation";
import { roles, type Role } from "@/lib/auth/roles";

interface NewUser {
  username: string;
  name?: string;
  role: Role;
  password: string;
}

export function UsersClient({ initialUsers }: { initialUsers: UserSummary[] }) {
  const t = useTranslations("admin");
  const tr = useTranslations("roles");
  const me = useCurrentUser();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roleOptions = useRoleOptions();
  const query = useQuery({ queryKey: usersQueryKey, queryFn: fetchUsers, initialData: initialUsers });
  const [search, setSearch] = useState("");
  const [adding, setAdding] = useState(false);
  const [passwordFor, setPasswordFor] = useState<UserSummary | null>(null);
  const [addForm] = Form.useForm<NewUser>();
  const [passwordForm] = Form.useForm<{ password: string }>();

  const refresh = () => queryClient.invalidateQueries({ queryKey: usersQueryKey });
  const create = useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      message.success(t("users.createdMessage", { name: user.username }));
      setAdding(false);
      addForm.resetFields();
      void refresh();
    },
    onError: (error) => message.error(errorText(error)),
  });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: string; change: Parameters<typeof updateUser>[1] }) => updateUser(id, change),
    onSuccess: (user) => {
      message.success(t("users.updatedMessage", { name: user.username }));
      setPasswordFor(null);
      passwordForm.resetFields();
      void refresh();
    },
    onError: (error) => message.error(errorText(error)),
  });

  const unlock = useMutation({
    mutationFn: (user: UserSummary) => unlockUser(user.id),
    onSuccess: (result) => message.success(t("users.unlockedMessage", { name: result.username, count: result.failuresCleared })),
    onError: (error) => message.error(errorText(error)),
  });

  const needle = search.trim().toLowerCase();
  const users = (query.data ?? []).filter((u) => !needle || u.username.includes(needle) || u.name.toLowerCase().includes(needle));

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading
        title={t("users.title")}
        subtitle={t("users.subtitle")}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t("users.add")}
          </Button>
        }
      />
      {query.isError && (
        <Alert type="error" showIcon title={t("loadError")} description={errorText(query.error)} action={<Button onClick={() => query.refetch()}>{t("retry")}</Button>} />
      )}
      <Space>
        <Input.Search allowClear placeholder={t("users.searchPlaceholder")} aria-label={t("users.searchPlaceholder")} onChange={(e) => setSearch(e.target.value)} style={{ width: 280 }} />
        <Typography.Text type="secondary">{t("users.count", { count: users.length })}</Typography.Text>
      </Space>
      <Table<UserSummary>
        rowKey="id"
        size="small"
        dataSource={users}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          {
            title: t("users.username"),
            dataIndex: "username",
            sorter: (a, b) => a.username.localeCompare(b.username),
            render: (name: string, user) => (
              <Space>
                <Typography.Text strong>{name}</Typography.Text>
                {user.id === me.id && <Tag>{t("users.you")}</Tag>}
              </Space>
            ),
          },
          { title: t("users.name"), dataIndex: "name", sorter: (a, b) => a.name.localeCompare(b.name) },
          {
            title: t("users.role"),
            dataIndex: "role",
            filters: roles.map((role) => ({ text: tr(role), value: role })),
            onFilter: (value, user) => user.role === value,
            sorter: (a, b) => roles.indexOf(a.role) - roles.indexOf(b.role),
            render: (role: Role, user) => (
              <Select<Role>
                size="small"
                value={role}
                aria-label={`${t("users.role")}: ${user.username}`}
                style={{ width: 120 }}
                options={roles.map((r) => ({ value: r, label: <RoleTag role={r} /> }))}
                onChange={(next) => update.mutate({ id: user.id, change: { role: next } })}
              />
            ),
          },
          {
            title: t("users.status"),
            dataIndex: "disabled",
            filters: [
              { text: t("users.enabled"), value: false },
              { text: t("users.disabled"), value: true },
            ],
            onFilter: (value, user) => user.disabled === value,
            render: (disabled: boolean) => (disabled ? <Tag color="red">{t("users.disabled")}</Tag> : <Tag color="green">{t("users.enabled")}</Tag>),
          },
          { title: t("users.lastSignIn"), dataIndex: "lastSignInAt", render: (v: string | null) => <DateTime value={v} fallback={t("never")} /> },
          { title: t("users.created"), dataIndex: "createdAt", sorter: (a, b) => a.createdAt.localeCompare(b.createdAt), render: (v: string) => <DateTime value={v} /> },
          {
            title: t("users.actions"),
            key: "actions",
            render: (_, user) => (
              <Space>
                {user.disabled ? (
                  <Button size="small" onClick={() => update.mutate({ id: user.id, change: { disabled: false } })}>
                    {t("users.enable")}
                  </Button>
                ) : (
                  <Popconfirm title={t("users.confirmDisable", { name: user.username })} onConfirm={() => update.mutate({ id: user.id, change: { disabled: true } })}>
                    <Button size="small" danger>
                      {t("users.disable")}
                    </Button>
                  </Popconfirm>
                )}
                <Button size="small" onClick={() => setPasswordFor(user)}>
                  {t("users.setPassword")}
                </Button>
                <Tooltip title={t("users.unlockHelp")}>
                  <Button size="small" loading={unlock.isPending && unlock.variables?.id === user.id} onClick={() => unlock.mutate(user)}>
                    {t("users.unlock")}
                  </Button>
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
      <Modal title={t("users.add")} open={adding} onCancel={() => setAdding(false)} onOk={() => addForm.submit()} okText={t("users.save")} cancelText={t("cancel")} confirmLoading={create.isPending} destroyOnHidden>
        <Form<NewUser> form={addForm} layout="vertical" initialValues={{ role: "viewer" }} onFinish={(values) => create.mutate(values)}>
          <Form.Item label={t("users.username")} name="username" rules={[{ required: true, pattern: /^[a-z0-9_.]{3,30}$/ }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item label={t("users.name")} name="name">
            <Input />
          </Form.Item>
          <Form.Item label={t("users.role")} name="role" rules={[{ required: true }]}>
            <Select options={roleOptions} />
          </Form.Item>
          <Form.Item label={t("users.password")} name="password" extra={t("users.passwordHelp")} rules={[{ required: true, min: 10, max: 128 }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={`${t("users.setPassword")}: ${passwordFor?.username ?? ""}`}
        open={passwordFor !== null}
        onCancel={() => setPasswordFor(null)}
        onOk={() => passwordForm.submit()}
        okText={t("users.save")}
        cancelText={t("cancel")}
        confirmLoading={update.isPending}
        destroyOnHidden
      >
        <Form<{ password: string }> form={passwordForm} layout="vertical" onFinish={({ password }) => passwordFor && update.mutate({ id: passwordFor.id, change: { password } })}>
          <Form.Item label={t("users.password")} name="password" extra={t("users.passwordHelp")} rules={[{ required: true, min: 10, max: 128 }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
