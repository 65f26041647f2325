"use client";

import { Alert, Card, Flex, List, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useBilingual } from "@/components/faults/use-bilingual";
import { SeverityTag } from "@/components/rank-tables/severity-tag";
import { parseCpuList } from "@/lib/affinity/cpu-list";
import type { AffinityFinding } from "@/lib/affinity/findings";
import type { Bilingual, ParseProblem, UnknownLine } from "@/lib/affinity/text";
import type { CheckResponse, PlanResponse } from "./api";
import { NumaPicture } from "./numa-picture";

function UnknownLines({ lines }: { lines: readonly UnknownLine[] }) {
  const t = useTranslations("affinity");
  if (lines.length === 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      title={t("unknownLines", { count: lines.length })}
      description={lines.slice(0, 20).map((line) => (
        <div key={line.line}>
          <Typography.Text code>{line.line}</Typography.Text> {line.text}
        </div>
      ))}
    />
  );
}

/** Lines that looked like a known field but could not be read, or a paste cut short. */
function ParseProblems({ problems }: { problems: readonly ParseProblem[] }) {
  const t = useTranslations("affinity");
  const pick = useBilingual();
  if (problems.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="affinity-parse-problems"
      title={t("parseProblems", { count: problems.length })}
      description={problems.map((problem, index) => (
        <div key={index}>
          {problem.line > 0 && <Typography.Text code>{problem.line}</Typography.Text>} {pick(problem.message)}
        </div>
      ))}
    />
  );
}

export function Findings({ findings }: { findings: readonly AffinityFinding[] }) {
  const t = useTranslations("affinity");
  const pick = useBilingual();
  return (
    <List
      data-testid="affinity-findings"
      size="small"
      locale={{ emptyText: t("noFindings") }}
      dataSource={[...findings]}
      renderItem={(f) => (
        <List.Item data-testid="affinity-finding" data-code={f.code}>
          <Flex vertical gap={2}>
            <span>
              <SeverityTag severity={f.severity} /> <Typography.Text code>{f.code}</Typography.Text> {pick(f.message)}
            </span>
            <Typography.Text type="secondary">
              {t("fix")}: {pick(f.fix)}
            </Typography.Text>
          </Flex>
        </List.Item>
      )}
    />
  );
}

export function EnvLine({ text, title }: { text: string; title?: string }) {
  const t = useTranslations("affinity");
  return (
    <Card size="small" title={title ?? t("env")}>
      <Typography.Paragraph copyable={{ text, tooltips: [t("copy"), t("copied")] }} style={{ margin: 0 }}>
        <pre data-testid="affinity-env" style={{ margin: 0, whiteSpace: "pre-wrap" }}>
          {text}
        </pre>
      </Typography.Paragraph>
    </Card>
  );
}

const allUnknown = (response: CheckResponse | PlanResponse) => [...response.lscpu.unknownLines, ...(response.topo?.unknownLines ?? [])];
const allProblems = (response: CheckResponse | PlanResponse) => [...response.lscpu.problems, ...(response.topo?.problems ?? [])];

export function CheckResult({ response }: { response: CheckResponse }) {
  const t = useTranslations("affinity");
  const { check } = response;
  return (
    <Flex vertical gap={12}>
      <UnknownLines lines={allUnknown(response)} />
      <ParseProblems problems={allProblems(response)} />
      <Typography.Text strong>{t("summary", { errors: check.errors, warnings: check.warnings })}</Typography.Text>
      <Findings findings={check.findings} />
      <NumaPicture layout={response.layout} bindings={check.bindings.filter((b) => b.used)} />
      <EnvLine text={`export CPU_AFFINITY_CONF=${check.value}`} />
    </Flex>
  );
}

export function PlanResult({ response }: { response: PlanResponse }) {
  const t = useTranslations("affinity");
  const pick = useBilingual();
  const { plan } = response;
  const bindings = plan.ranges.map((range) => ({ npu: range.npu, physicalNpu: range.physicalNpu, cpus: parseCpuList(range.cpus) ?? [] }));
  const reserved = plan.reserved.flatMap((entry) => parseCpuList(entry.cpus) ?? []);
  return (
    <Flex vertical gap={12}>
      <UnknownLines lines={allUnknown(response)} />
      <ParseProblems problems={allProblems(response)} />
      <EnvLine text={plan.env} />
      <Card size="small" title={t("explanations")}>
        <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="affinity-explanations">
          {plan.explanations.map((explanation: Bilingual, index: number) => (
            <li key={index}>{pick(explanation)}</li>
          ))}
        </ul>
      </Card>
      <NumaPicture layout={response.layout} bindings={bindings} reserved={reserved} />
      {plan.findings.length > 0 && <Findings findings={plan.findings} />}
    </Flex>
  );
}
