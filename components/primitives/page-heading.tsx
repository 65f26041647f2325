import { Typography } from "antd";
import type { ReactNode } from "react";

export function PageHeading({ title, subtitle, extra }: { title: string; subtitle?: string; extra?: ReactNode }) {
  return (
    <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-start", gap: 16 }}>
      <div>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {title}
        </Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary" style={{ margin: "4px 0 0" }}>{subtitle}</Typography.Paragraph>}
      </div>
      {extra}
    </div>
  );
}
