"use client";

import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, QuestionCircleFilled } from "@ant-design/icons";
import { Space, Typography } from "antd";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import { healthStates, type Health } from "@/lib/topology/model";
import { HEALTH_COLORS, LINK_STYLES } from "./colors";

/** Colour is never the only signal: every state has its own icon and word. */
export const HEALTH_ICONS: Record<Health, ReactNode> = {
  healthy: <CheckCircleFilled />,
  degraded: <ExclamationCircleFilled />,
  faulty: <CloseCircleFilled />,
  unknown: <QuestionCircleFilled />,
};

export function HealthLabel({ health, theme }: { health: Health; theme: "light" | "dark" }) {
  const t = useTranslations("topology.health");
  return (
    <span style={{ display: "inline-flex", alignItems: "center", gap: 4 }}>
      <span style={{ color: HEALTH_COLORS[theme][health], fontSize: 14 }} aria-hidden>
        {HEALTH_ICONS[health]}
      </span>
      {t(health)}
    </span>
  );
}

export function LinkSample({ kind }: { kind: LinkKind }) {
  const style = LINK_STYLES[kind];
  return (
    <svg width="28" height="10" aria-hidden style={{ verticalAlign: "middle" }}>
      <line x1="1" y1="5" x2="27" y2="5" stroke={style.color} strokeWidth={style.width} strokeDasharray={style.type === "dashed" ? "5 3" : undefined} />
    </svg>
  );
}

/** `kinds`: the link kinds of the cluster (lib/inventory/vocabulary.ts `linkKindsOf`). */
export function TopologyLegend({ theme, anyKnown, kinds }: { theme: "light" | "dark"; anyKnown: boolean; kinds: readonly LinkKind[] }) {
  const t = useTranslations("topology");
  return (
    <div role="group" aria-label={t("legend.title")} style={{ display: "flex", flexWrap: "wrap", gap: "4px 20px", alignItems: "center" }}>
      <Space size={12} wrap>
        {healthStates.map((health) => (
          <HealthLabel key={health} health={health} theme={theme} />
        ))}
      </Space>
      <Space size={12} wrap>
        {kinds.map((kind) => (
          <span key={kind} style={{ display: "inline-flex", alignItems: "center", gap: 6 }}>
            <LinkSample kind={kind} />
            {t(`links.${kind}`)}
          </span>
        ))}
      </Space>
      {!anyKnown && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t("legend.noFaultData")}
        </Typography.Text>
      )}
    </div>
  );
}
