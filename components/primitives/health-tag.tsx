"use client";

import { CheckCircleOutlined, CloseCircleOutlined, ExclamationCircleOutlined, QuestionCircleOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import type { ReactNode } from "react";
import type { HealthTone } from "@/lib/faults/levels";

/** The console's meaning colours (shared/spec/ui.md), always with an icon so colour is never the only signal. */
export const healthLooks: Record<HealthTone, { color: string; icon: ReactNode }> = {
  healthy: { color: "success", icon: <CheckCircleOutlined /> },
  degraded: { color: "warning", icon: <ExclamationCircleOutlined /> },
  faulty: { color: "error", icon: <CloseCircleOutlined /> },
  unknown: { color: "default", icon: <QuestionCircleOutlined /> },
};

export function HealthTag({ tone, children }: { tone: HealthTone; children: ReactNode }) {
  return (
    <Tag color={healthLooks[tone].color} icon={healthLooks[tone].icon}>
      {children}
    </Tag>
  );
}
