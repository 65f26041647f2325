"use client";

import { Space } from "antd";
import { usePathname, useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useDeferredValue, useMemo, useState } from "react";
import { ProblemsTable } from "@/components/rank-tables/problems-table";
import { RankTableSource } from "@/components/rank-tables/rank-table-source";
import { ReportSummary } from "@/components/rank-tables/report-summary";
import { PageHeading } from "@/components/primitives/page-heading";
import { validateRankTable } from "@/lib/rank-table";
import type { SeverityFilter } from "./search-params";

export function RankTableCheckerClient({ initialSeverity }: { initialSeverity: SeverityFilter }) {
  const t = useTranslations("rankTables");
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string>();
  const [severity, setSeverity] = useState(initialSeverity);
  // Typing stays responsive on large tables: validation follows the deferred text.
  const deferredText = useDeferredValue(text);
  const report = useMemo(
    () => (deferredText.trim() ? validateRankTable(deferredText, { lang: locale === "zh-CN" ? "zh" : "en" }) : undefined),
    [deferredText, locale],
  );

  const changeSeverity = (next: SeverityFilter) => {
    setSeverity(next);
    router.replace(next === "all" ? pathname : `${pathname}?severity=${next}`, { scroll: false });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      <RankTableSource
        text={text}
        fileName={fileName}
        onChange={(next, name) => {
          setText(next);
          setFileName(name);
        }}
      />
      {report && (
        <>
          <ReportSummary report={report} text={deferredText} fileName={fileName} />
          <ProblemsTable issues={report.issues} severity={severity} onSeverityChange={changeSeverity} />
        </>
      )}
    </Space>
  );
}
