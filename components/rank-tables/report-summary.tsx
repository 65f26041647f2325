"use client";

import { DownloadOutlined } from "@ant-design/icons";
import { Alert, App, Button, Descriptions } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import { parseRankTable, writeRankTable, type RankTableInput, type ValidationReport } from "@/lib/rank-table";
import { countBySeverity } from "./severity-counts";

function download(content: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

export function ReportSummary({
  report,
  text,
  fileName,
}: {
  report: ValidationReport;
  text: string;
  fileName: string | undefined;
}) {
  const t = useTranslations("rankTables");
  const format = useFormatter();
  const { modal } = App.useApp();
  const counts = countBySeverity(report.issues);
  const unreadable = report.issues.some((issue) => issue.code === "RT000");

  const exportCanonical = () => {
    const value = parseRankTable(text).value;
    const exportName = fileName ? `${fileName.replace(/\.jsonc?$/i, "")}.json` : "hccl.json";
    const save = () => download(writeRankTable(value as RankTableInput), exportName);
    if (counts.error === 0) return save();
    modal.confirm({
      title: t("exportWithErrorsTitle"),
      content: t("exportWithErrors", { count: counts.error }),
      okText: t("exportAnyway"),
      okButtonProps: { danger: true },
      onOk: save,
    });
  };

  return (
    <section aria-label={t("reportLabel")}>
      <Alert
        type={report.valid ? (counts.warning ? "warning" : "success") : "error"}
        showIcon
        title={report.valid ? t("valid") : t("invalid", { count: counts.error })}
        description={t("counts", counts)}
        action={
          <Button icon={<DownloadOutlined />} disabled={unreadable} onClick={exportCanonical}>
            {t("exportCanonical")}
          </Button>
        }
      />
      <Descriptions size="small" column={{ xs: 1, md: 5 }} style={{ marginTop: 12 }}>
        <Descriptions.Item label={t("version")}>{report.version ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("mode")}>{t(report.mode === "super-pod" ? "modeSuperPod" : "modeAiServer")}</Descriptions.Item>
        <Descriptions.Item label={t("superPods")}>{format.number(report.stats.superPods)}</Descriptions.Item>
        <Descriptions.Item label={t("servers")}>{format.number(report.stats.servers)}</Descriptions.Item>
        <Descriptions.Item label={t("devices")}>{format.number(report.stats.devices)}</Descriptions.Item>
      </Descriptions>
    </section>
  );
}
