"use client";

import { Descriptions, Empty, List, Progress, Space, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useFormatter, useTranslations } from "next-intl";
import { useBilingual } from "@/components/faults/use-bilingual";
import type { DiagnosisReport, LinkHistory, RankStatus, Suspect } from "@/lib/hccl-diagnose";

const statusColors: Record<RankStatus, string> = { timeout: "warning", error: "error", ok: "success", unknown: "default" };

/** Where a suspect is, in the words the logs gave: rank, device, IPs, port, peer. */
function useSuspectPlace() {
  const t = useTranslations("jobs.report");
  return (s: Suspect) =>
    [
      s.rank !== undefined ? t("rankLine", { rank: s.rank }) : null,
      s.serverId ?? s.hostIp ?? null,
      s.deviceId !== undefined ? `device ${s.deviceId}` : null,
      s.deviceIp ?? null,
      s.port !== undefined ? `port ${s.port}` : null,
      s.peer ? t("peer", { peer: s.peer.rank !== undefined ? `rank ${s.peer.rank}` : (s.peer.deviceIp ?? "?") }) : null,
    ]
      .filter(Boolean)
      .join(" · ");
}

/** An error CQE's two NICs' network fault events around the job's run (seed 002, 6.3), looked up when it was diagnosed. */
function LinkHistoryList({ history }: { history: LinkHistory }) {
  const t = useTranslations("jobs.report");
  const kinds = useTranslations("faults.kinds");
  const format = useFormatter();
  const at = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "medium" });
  return (
    <List
      size="small"
      data-testid="link-history"
      header={t("linkHistory", { from: at(history.from), to: at(history.to) })}
      dataSource={history.events}
      locale={{ emptyText: t("linkHistoryNone") }}
      footer={history.unplaced.length > 0 ? t("linkHistoryUnplaced", { nics: history.unplaced.join(", ") }) : undefined}
      renderItem={(e) => (
        <List.Item>
          <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineEnd: 8 }}>
            {at(e.beganAt)}
          </Typography.Text>
          {t("linkEvent", {
            kind: kinds.has(e.kind) ? kinds(e.kind) : e.kind,
            code: e.code ? ` ${e.code}` : "",
            die: e.die,
            nic: e.nic,
            duration: e.endedAt === null ? t("linkEventOpen") : t("linkEventSeconds", { seconds: Math.round((Date.parse(e.endedAt) - Date.parse(e.beganAt)) / 1000) }),
          })}
        </List.Item>
      )}
    />
  );
}

/** A diagnosis report in the reader's language: phase, summary, suspects with confidence and evidence, next steps. */
export function ReportView({ report }: { report: DiagnosisReport }) {
  const t = useTranslations("jobs");
  const pick = useBilingual();
  const place = useSuspectPlace();
  const counts = new Map<RankStatus, number>();
  for (const r of report.ranks) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }} data-testid="diagnosis-report">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t("report.phase")}>
          <Tag color="blue" data-phase={report.phase}>
            {t(`phases.${report.phase}`)}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("report.summary")}>{pick(report.summary)}</Descriptions.Item>
        <Descriptions.Item label={t("report.ranks")}>
          <Space wrap>
            {[...counts].map(([status, count]) => (
              <Tag key={status} color={statusColors[status]}>
                {t(`report.status.${status}`)}: {count}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={4} style={{ margin: 0, fontSize: 15 }}>
        {t("report.suspects")}
      </Typography.Title>
      <Table<Suspect & { key: number }>
        size="small"
        pagination={false}
        dataSource={report.suspects.map((s, key) => ({ ...s, key }))}
        locale={{ emptyText: <Empty description={t("report.noSuspects")} /> }}
        expandable={{
          expandedRowRender: (s) => (
            <>
              <List
                size="small"
                header={t("report.evidence")}
                dataSource={s.evidence}
                renderItem={(e) => (
                  <List.Item>
                    <Space orientation="vertical" size={0} style={{ width: "100%" }}>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t("report.line", { file: e.file, line: e.line })}
                      </Typography.Text>
                      <Typography.Text code style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                        {e.text}
                      </Typography.Text>
                    </Space>
                  </List.Item>
                )}
              />
              {s.linkHistory && <LinkHistoryList history={s.linkHistory} />}
            </>
          ),
          rowExpandable: (s) => s.evidence.length > 0 || s.linkHistory !== undefined,
          defaultExpandedRowKeys: [0],
        }}
        columns={[
          { title: "", key: "kind", width: 90, render: (_, s) => <Tag color={s.confidence >= 0.6 ? "red" : "orange"}>{t(`report.kinds.${s.kind}`)}</Tag> },
          { title: "", key: "where", render: (_, s) => <span data-testid="suspect-place">{place(s)}</span> },
          { title: t("report.confidence"), key: "confidence", width: 140, render: (_, s) => <Progress percent={Math.round(s.confidence * 100)} size="small" status="normal" /> },
          { title: t("report.reason"), key: "reason", render: (_, s) => pick(s.reason) },
        ]}
      />
      {report.nextSteps.length > 0 && (
        <>
          <Typography.Title level={4} style={{ margin: 0, fontSize: 15 }}>
            {t("report.nextSteps")}
          </Typography.Title>
          <ol style={{ margin: 0, paddingInlineStart: 20 }}>
            {report.nextSteps.map((step, i) => (
              <li key={i}>{pick(step)}</li>
            ))}
          </ol>
        </>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("report.stats", { files: report.stats.files, lines: report.stats.lines, unknown: report.stats.unknownLines, errors: report.stats.errorLines })}
      </Typography.Text>
    </Space>
  );
}
