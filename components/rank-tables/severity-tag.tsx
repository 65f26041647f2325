"use client";

import { CloseCircleOutlined, ExclamationCircleOutlined, InfoCircleOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { useTranslations } from "next-intl";
import type { Severity } from "@/lib/rank-table";

/** Colour plus icon plus word: severity is never told by colour alone. */
const looks: Record<Severity, { color: string; icon: React.ReactNode }> = {
  error: { color: "error", icon: <CloseCircleOutlined /> },
  warning: { color: "warning", icon: <ExclamationCircleOutlined /> },
  info: { color: "processing", icon: <InfoCircleOutlined /> },
};

export function SeverityTag({ severity }: { severity: Severity }) {
  const t = useTranslations("rankTables.severity");
  return (
    <Tag color={looks[severity].color} icon={looks[severity].icon}>
      {t(severity)}
    </Tag>
  );
}
