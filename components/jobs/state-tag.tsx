"use client";

import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled, QuestionCircleFilled, SyncOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { JobState } from "@/lib/jobs/model";

/** Colour and icon and word: the state is never told by colour alone. */
const looks: Record<JobState, { color: string; icon: ReactNode }> = {
  pending: { color: "default", icon: <ClockCircleFilled /> },
  running: { color: "processing", icon: <SyncOutlined /> },
  succeeded: { color: "success", icon: <CheckCircleFilled /> },
  failed: { color: "error", icon: <CloseCircleFilled /> },
  unknown: { color: "default", icon: <QuestionCircleFilled /> },
};

export function JobStateTag({ state }: { state: JobState }) {
  const t = useTranslations("jobs.states");
  return (
    <Tag color={looks[state].color} icon={looks[state].icon} data-state={state}>
      {t(state)}
    </Tag>
  );
}
