"use client";

import { EditOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Descriptions, Form, Input, Modal, Space, Tag, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { portPolicySchema, type PortPolicy } from "@/lib/ports/policy";
import { formatList, formatRange, parsePortList, PortListError, type PortRange } from "@/lib/ports/ranges";
import { portKeys, putPortPolicy } from "./api";

const listFields = ["hcclHostRanges", "hcclNpuRanges", "hostNetworkRanges", "reserved", "forbidden"] as const;
type Values = Record<(typeof listFields)[number] | "ephemeral" | "overrides", string>;

/** A port list typed by hand ("61000-64999,65000"); throws PortListError. `auto` has no place in a policy. */
function rangesOf(text: string, allowEmpty: boolean): PortRange[] {
  if (text.trim() === "") {
    if (allowEmpty) return [];
    throw new PortListError("empty");
  }
  const list = parsePortList(text);
  if (list.kind !== "ports") throw new PortListError("auto");
  return list.ranges;
}

/** The cluster's port policy, readable by all; editors change it in a form (port lists as HCCL writes them). */
export function PortPolicyCard({ cluster, policy, stored, canEdit }: { cluster: string; policy: PortPolicy; stored: boolean; canEdit: boolean }) {
  const t = useTranslations("ports.policy");
  const [editing, setEditing] = useState(false);
  const overrides = Object.keys(policy.models).length + Object.keys(policy.servers).length;
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <Space>
        <Tag color={stored ? "processing" : "default"}>{stored ? t("stored") : t("default")}</Tag>
        {canEdit && (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t("edit")}
          </Button>
        )}
      </Space>
      <Descriptions size="small" bordered column={1} aria-label={t("title")}>
        {listFields.map((f) => (
          <Descriptions.Item key={f} label={t(`fields.${f}`)}>
            {formatList(policy[f]) || "—"}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t("fields.ephemeral")}>{formatRange(policy.ephemeral)}</Descriptions.Item>
        <Descriptions.Item label={t("fields.overrides")}>
          {overrides === 0 ? "—" : <Typography.Text code>{JSON.stringify({ models: policy.models, servers: policy.servers })}</Typography.Text>}
        </Descriptions.Item>
      </Descriptions>
      {editing && <PolicyForm cluster={cluster} policy={policy} onClose={() => setEditing(false)} />}
    </Space>
  );
}

function PolicyForm({ cluster, policy, onClose }: { cluster: string; policy: PortPolicy; onClose: () => void }) {
  const t = useTranslations("ports.policy");
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const save = useMutation({
    mutationFn: (next: PortPolicy) => putPortPolicy(cluster, next),
    onSuccess: async () => {
      message.success(t("saved"));
      await queryClient.invalidateQueries({ queryKey: portKeys.all });
      onClose();
    },
  });
  const initial: Values = {
    ...(Object.fromEntries(listFields.map((f) => [f, formatList(policy[f])])) as Record<(typeof listFields)[number], string>),
    ephemeral: formatRange(policy.ephemeral),
    overrides: JSON.stringify({ models: policy.models, servers: policy.servers }, null, 2),
  };
  const listRule = (allowEmpty: boolean) => ({
    validator: async (_: unknown, value: string) => {
      try {
        rangesOf(value ?? "", allowEmpty);
      } catch {
        throw new Error(t("badList"));
      }
    },
  });
  const submit = (values: Values) => {
    const ephemeral = rangesOf(values.ephemeral, false);
    const overrides = JSON.parse(values.overrides || "{}") as { models?: unknown; servers?: unknown };
    const next = portPolicySchema.parse({
      ...Object.fromEntries(listFields.map((f) => [f, rangesOf(values[f], f === "reserved" || f === "forbidden")])),
      ephemeral: { from: ephemeral[0]!.from, to: ephemeral.at(-1)!.to },
      models: overrides.models ?? {},
      servers: overrides.servers ?? {},
    });
    save.mutate(next);
  };
  return (
    <Modal open title={t("editTitle")} onCancel={onClose} onOk={() => form.submit()} okText={t("save")} confirmLoading={save.isPending} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        {listFields.map((f) => (
          <Form.Item key={f} name={f} label={t(`fields.${f}`)} extra={t(`help.${f}`)} rules={[listRule(f === "reserved" || f === "forbidden")]}>
            <Input placeholder="61000-64999" />
          </Form.Item>
        ))}
        <Form.Item name="ephemeral" label={t("fields.ephemeral")} extra={t("help.ephemeral")} rules={[listRule(false)]}>
          <Input placeholder="32768-60999" />
        </Form.Item>
        <Form.Item
          name="overrides"
          label={t("fields.overrides")}
          extra={t("help.overrides")}
          rules={[
            {
              validator: async (_, value: string) => {
                const parsed = (() => {
                  try {
                    return JSON.parse(value || "{}") as unknown;
                  } catch {
                    return undefined;
                  }
                })();
                const ok = typeof parsed === "object" && parsed !== null && portPolicySchema.shape.models.safeParse((parsed as { models?: unknown }).models ?? {}).success && portPolicySchema.shape.servers.safeParse((parsed as { servers?: unknown }).servers ?? {}).success;
                if (!ok) throw new Error(t("badOverrides"));
              },
            },
          ]}
        >
          <Input.TextArea rows={4} spellCheck={false} style={{ fontFamily: "monospace" }} />
        </Form.Item>
      </Form>
      {save.error && <Alert type="error" showIcon title={t("saveFailed", { message: save.error.message })} />}
    </Modal>
  );
}
