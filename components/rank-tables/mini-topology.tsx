"use client";

import { useTranslations } from "next-intl";
import type { Severity } from "@/lib/rank-table";
import type { IssueIndex, TableStructure } from "@/lib/rank-table-workspace/structure";

const fill: Record<Severity | "ok", string> = { error: "#ff4d4f", warning: "#faad14", info: "#1677ff", ok: "#52c41a" };
const symbol: Record<Severity | "ok", string> = { error: "✖", warning: "▲", info: "i", ok: "" };

/**
 * A small picture of the selected server (its dies, two per NPU, and the backup-rail pairs between them as dashed
 * lines) or super pod (its servers). Invalid dies are red and carry ✖, so colour is not the only signal.
 */
export function MiniTopology({ structure, issues, server, pod }: { structure: TableStructure; issues: IssueIndex; server: number | undefined; pod: number | undefined }) {
  const t = useTranslations("rankTables.editor");
  if (server !== undefined) {
    const node = structure.servers.find((candidate) => candidate.index === server);
    if (!node) return null;
    const rows = structure.rows.slice(node.firstRow, node.firstRow + node.rowCount);
    const columns = 8;
    const cell = 34;
    const width = columns * cell + 8;
    const height = Math.ceil(rows.length / columns) * (cell + 10) + 8;
    const byIp = new Map(rows.map((row, index) => [row.values.device_ip, index]));
    const position = (index: number) => ({ x: 4 + (index % columns) * cell + cell / 2, y: 4 + Math.floor(index / columns) * (cell + 10) + cell / 2 });
    const lines: { a: number; b: number }[] = [];
    rows.forEach((row, index) => {
      const partner = row.values.backup_device_ip === undefined ? undefined : byIp.get(row.values.backup_device_ip);
      if (partner !== undefined && partner > index) lines.push({ a: index, b: partner });
    });
    return (
      <figure style={{ margin: 0 }} aria-label={t("miniServer", { server: node.serverId })}>
        <svg width={width} height={height} role="img">
          <title>{t("miniServer", { server: node.serverId })}</title>
          {lines.map(({ a, b }) => {
            const from = position(a);
            const to = position(b);
            return <path key={`${a}-${b}`} d={`M${from.x},${from.y + 12} Q${(from.x + to.x) / 2},${from.y + 24} ${to.x},${to.y + 12}`} fill="none" stroke="#722ed1" strokeDasharray="3 2" strokeWidth={1.5} />;
          })}
          {rows.map((row, index) => {
            const { x, y } = position(index);
            const state = issues.byRow.get(row.key) ?? "ok";
            return (
              <g key={row.key}>
                <rect x={x - 13} y={y - 11} width={26} height={22} rx={3} fill={fill[state]} fillOpacity={0.25} stroke={fill[state]} />
                <text x={x} y={y + 4} textAnchor="middle" fontSize={10}>
                  {symbol[state] || row.values.device_id}
                </text>
              </g>
            );
          })}
        </svg>
        <figcaption style={{ fontSize: 12, opacity: 0.75 }}>{t("miniLegend")}</figcaption>
      </figure>
    );
  }
  const podNode = pod === undefined ? undefined : structure.pods.find((candidate) => candidate.index === pod);
  if (!podNode) return null;
  const columns = 12;
  const size = 20;
  return (
    <figure style={{ margin: 0 }} aria-label={t("miniPod", { id: podNode.superPodId })}>
      <svg width={columns * (size + 4) + 4} height={Math.ceil(podNode.servers.length / columns) * (size + 4) + 4} role="img">
        <title>{t("miniPod", { id: podNode.superPodId })}</title>
        {podNode.servers.map((server, index) => {
          const state = issues.byServer.get(server.index) ?? "ok";
          return (
            <g key={server.index}>
              <rect x={4 + (index % columns) * (size + 4)} y={4 + Math.floor(index / columns) * (size + 4)} width={size} height={size} rx={3} fill={fill[state]} fillOpacity={0.3} stroke={fill[state]}>
                <title>{server.serverId}</title>
              </rect>
              <text x={4 + (index % columns) * (size + 4) + size / 2} y={4 + Math.floor(index / columns) * (size + 4) + 14} textAnchor="middle" fontSize={10}>
                {symbol[state]}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption style={{ fontSize: 12, opacity: 0.75 }}>{t("miniPodLegend")}</figcaption>
    </figure>
  );
}
