"use client";

import { Col, Row, Statistic } from "antd";
import { useFormatter, useTranslations } from "next-intl";

export interface LevelCounts {
  clusters?: number;
  superPods: number;
  servers: number;
  npus: number;
  devices: number;
}

export function sumCounts(items: LevelCounts[]): LevelCounts {
  return items.reduce(
    (sum, c) => ({
      superPods: sum.superPods + c.superPods,
      servers: sum.servers + c.servers,
      npus: sum.npus + c.npus,
      devices: sum.devices + c.devices,
    }),
    { superPods: 0, servers: 0, npus: 0, devices: 0 },
  );
}

const levels = ["clusters", "superPods", "servers", "npus", "devices"] as const;

export function CountsRow({ counts }: { counts: LevelCounts }) {
  const t = useTranslations("overview");
  const format = useFormatter();
  return (
    <Row gutter={[16, 16]} role="list">
      {levels
        .filter((level) => counts[level] !== undefined)
        .map((level) => (
          <Col key={level} xs={12} md={6} xl={4} role="listitem">
            <Statistic title={t(level)} value={counts[level]} formatter={(value) => format.number(Number(value))} />
          </Col>
        ))}
    </Row>
  );
}
