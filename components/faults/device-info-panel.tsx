"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Input, List, Space, Tag, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { faultKeys, postDeviceInfo, type DeviceInfoAnswer } from "./api";
import { problemOfError, useProblemText } from "./problem-text";

/**
 * Paste a device-info ConfigMap (`kubectl get cm mindx-dl-deviceinfo-<node> -n kube-system -o json`, its data, or
 * the DeviceInfoCfg JSON) and take it in: faults that appeared open events, faults that cleared close them. The
 * server's refusals and warnings are shown in the reader's language.
 */
export function DeviceInfoPanel({ cluster, canWrite }: { cluster: string; canWrite: boolean }) {
  const t = useTranslations("faults.deviceInfo");
  const client = useQueryClient();
  const problemText = useProblemText();
  const [text, setText] = useState("");
  const [node, setNode] = useState("");
  const mutation = useMutation<DeviceInfoAnswer, Error>({
    mutationFn: () => postDeviceInfo(cluster, node.trim() || undefined, text),
    onSuccess: () => void client.invalidateQueries({ queryKey: faultKeys.all }),
  });
  const result = mutation.data;
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary">{t("intro")}</Typography.Paragraph>
      <Typography.Text code>kubectl get cm mindx-dl-deviceinfo-&lt;node&gt; -n kube-system -o json</Typography.Text>
      <Input.TextArea
        aria-label={t("paste")}
        placeholder={t("paste")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 8, maxRows: 20 }}
        style={{ fontFamily: "monospace" }}
      />
      <Space wrap>
        <Input aria-label={t("node")} placeholder={t("node")} value={node} onChange={(e) => setNode(e.target.value)} style={{ width: 260 }} />
        <Button type="primary" disabled={!canWrite || text.trim() === ""} loading={mutation.isPending} onClick={() => mutation.mutate()}>
          {t("submit")}
        </Button>
        {!canWrite ? <Typography.Text type="secondary">{t("needsEditor")}</Typography.Text> : null}
      </Space>
      {mutation.isError ? <Alert type="error" showIcon title={t("failed")} description={problemText(problemOfError(mutation.error))} /> : null}
      {result ? (
        <Card size="small" title={t("resultTitle", { server: result.server })}>
          <Space orientation="vertical" style={{ width: "100%" }}>
            <Space wrap>
              <Tag color={result.checkCode === "valid" ? "success" : result.checkCode === "mismatch" ? "warning" : "default"}>{t(`checkCode.${result.checkCode}`)}</Tag>
              {result.stale ? <Tag color="warning">{t("stale")}</Tag> : null}
              <Tag>{t("counts", { opened: result.opened.length, closed: result.closed.length, unchanged: result.unchanged })}</Tag>
            </Space>
            {result.warnings.map((w, i) => (
              <Alert key={i} type="warning" showIcon title={problemText(w)} />
            ))}
            {result.opened.length ? (
              <List size="small" header={t("opened")} dataSource={result.opened} renderItem={(o) => (
                  <List.Item>
                    {`${o.npuName ?? t("switchPort", { chip: o.switchPort?.chipId ?? 0, port: o.switchPort?.portId ?? 0 })} · ${o.code ?? "—"} · ${o.level}`}
                  </List.Item>
                )} />
            ) : null}
          </Space>
        </Card>
      ) : null}
    </Space>
  );
}
