"use client";

import { CopyOutlined, DownloadOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, Input, Space } from "antd";
import { useTranslations } from "next-intl";
import { writeRankTable, type JsonValue } from "@/lib/rank-table";
import { downloadText } from "@/components/primitives/download";
import { configMapYaml, exportFileName } from "./export-actions";

/** Export of the edited table (canonical JSON, a ConfigMap, the clipboard), asking first when it has errors. */
export function ExportMenu({ table, name, errorCount }: { table: JsonValue | undefined; name: string; errorCount: number }) {
  const t = useTranslations("rankTables.editor");
  const tRoot = useTranslations("rankTables");
  const { message, modal } = App.useApp();

  const confirmExport = (run: () => void) => {
    if (errorCount === 0) return run();
    modal.confirm({
      title: tRoot("exportWithErrorsTitle"),
      content: tRoot("exportWithErrors", { count: errorCount }),
      okText: tRoot("exportAnyway"),
      okButtonProps: { danger: true },
      onOk: run,
    });
  };

  const exportConfigMap = () => {
    let job = name || "job";
    let namespace = "";
    modal.confirm({
      title: t("configMapTitle"),
      content: (
        <Space orientation="vertical" style={{ width: "100%" }}>
          <Input prefix={<span style={{ opacity: 0.6 }}>{t("job")}</span>} defaultValue={job} onChange={(event) => (job = event.target.value)} />
          <Input prefix={<span style={{ opacity: 0.6 }}>{t("namespace")}</span>} placeholder="default" onChange={(event) => (namespace = event.target.value)} />
        </Space>
      ),
      onOk: () =>
        confirmExport(() => {
          const yaml = configMapYaml(writeRankTable(table!), job, namespace || undefined);
          downloadText(yaml, `rings-config-${job}.yaml`.replace(/[^\w.-]+/g, "-"), "application/yaml");
        }),
    });
  };

  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: [
          { key: "json", label: t("downloadJson"), onClick: () => confirmExport(() => downloadText(writeRankTable(table!), exportFileName(name), "application/json")) },
          { key: "configmap", label: t("downloadConfigMap"), onClick: exportConfigMap },
          {
            key: "copy",
            label: t("copyJson"),
            icon: <CopyOutlined />,
            onClick: () => confirmExport(() => void navigator.clipboard.writeText(writeRankTable(table!)).then(() => message.success(t("copied")), () => message.error(t("copyFailed")))),
          },
        ],
      }}
    >
      <Button icon={<DownloadOutlined />} disabled={table === null}>
        {t("export")}
      </Button>
    </Dropdown>
  );
}
