"use client";

import { Flex, Tag, Typography, theme } from "antd";
import { useTranslations } from "next-intl";
import { formatCpuList } from "@/lib/affinity/cpu-list";
import type { CpuLayout } from "@/lib/affinity/layout";

/** One NPU's CPUs in the picture: a checked binding or a planned range. */
export interface PictureBinding {
  readonly npu: number;
  readonly physicalNpu: number | null;
  readonly cpus: readonly number[];
}

// Distinct hues per NPU; overlaps and reserved cores also carry a mark (× / R), so colour is never the only signal.
const palette = ["#1677ff", "#13a8a8", "#722ed1", "#eb2f96", "#fa8c16", "#52c41a", "#2f54eb", "#a0d911", "#08979c", "#c41d7f", "#d46b08", "#531dab", "#389e0d", "#1d39c4", "#cf1322", "#7cb305"];
export const npuColor = (npu: number) => palette[npu % palette.length] ?? "#1677ff";

/** The server's NUMA nodes as blocks of cores, the NPUs attached to their node, each NPU's cores in its colour. */
export function NumaPicture({ layout, bindings, reserved = [] }: { layout: CpuLayout; bindings: readonly PictureBinding[]; reserved?: readonly number[] }) {
  const t = useTranslations("affinity");
  const { token } = theme.useToken();
  const owners = new Map<number, PictureBinding[]>();
  for (const binding of bindings) for (const cpu of binding.cpus) owners.set(cpu, [...(owners.get(cpu) ?? []), binding]);
  const nodeOf = new Map(layout.numaNodes.flatMap((node) => node.cpus.map((cpu) => [cpu, node.id] as const)));
  const crossing = new Set(bindings.filter((b) => new Set(b.cpus.map((cpu) => nodeOf.get(cpu))).size > 1).map((b) => b.npu));
  const kept = new Set(reserved);

  return (
    <Flex vertical gap={12} data-testid="numa-picture">
      <Flex gap={16} wrap>
        <Typography.Text type="secondary">{t("legendOverlap")}</Typography.Text>
        <Typography.Text type="secondary">{t("legendReserved")}</Typography.Text>
      </Flex>
      <Flex gap={12} wrap>
        {layout.numaNodes.map((node) => {
          const attached = layout.npus.filter((npu) => npu.numaNode === node.id);
          const here = bindings.filter((b) => b.cpus.some((cpu) => nodeOf.get(cpu) === node.id));
          return (
            <section key={node.id} data-testid={`numa-node-${node.id}`} style={{ border: `1px solid ${token.colorBorder}`, borderRadius: 6, padding: 8, minWidth: 200 }}>
              <Typography.Text strong>{t("node", { id: node.id })}</Typography.Text>{" "}
              <Typography.Text type="secondary">{t("nodeCpus", { count: node.cpus.length, list: formatCpuList(node.cpus) })}</Typography.Text>
              <Flex gap={4} wrap style={{ margin: "6px 0" }}>
                {attached.length === 0 && <Typography.Text type="secondary">{t("noNpus")}</Typography.Text>}
                {attached.map((npu) => (
                  <Tag key={npu.id}>NPU {npu.id}</Tag>
                ))}
                {here.map((b) => (
                  <Tag key={`b${b.npu}`} color={npuColor(b.npu)} data-testid="binding-tag">
                    npu{b.npu}
                    {b.physicalNpu !== null && b.physicalNpu !== b.npu ? ` (NPU ${b.physicalNpu})` : ""}: {formatCpuList(b.cpus.filter((cpu) => nodeOf.get(cpu) === node.id))}
                    {crossing.has(b.npu) ? ` ⚠ ${t("crosses")}` : ""}
                  </Tag>
                ))}
              </Flex>
              <div style={{ display: "grid", gridTemplateColumns: "repeat(12, 16px)", gap: 2 }}>
                {node.cpus.map((cpu) => {
                  const who = owners.get(cpu) ?? [];
                  const overlap = who.length > 1;
                  const label = overlap ? "×" : kept.has(cpu) ? "R" : "";
                  const title = `CPU ${cpu}${who.length ? `: ${who.map((b) => `npu${b.npu}`).join(", ")}` : ""}${overlap ? ` (${t("overlap")})` : ""}${kept.has(cpu) ? ` (${t("reserved")})` : ""}`;
                  return (
                    <span
                      key={cpu}
                      title={title}
                      data-testid="cpu-cell"
                      data-cpu={cpu}
                      data-npu={who.map((b) => b.npu).join(",")}
                      data-overlap={overlap ? "true" : undefined}
                      style={{
                        width: 16,
                        height: 16,
                        borderRadius: 2,
                        fontSize: 10,
                        lineHeight: "16px",
                        textAlign: "center",
                        color: "#fff",
                        background: overlap ? token.colorError : who[0] ? npuColor(who[0].npu) : token.colorFillSecondary,
                        outline: kept.has(cpu) ? `1px dashed ${token.colorTextSecondary}` : undefined,
                      }}
                    >
                      <span style={{ color: who.length ? "#fff" : token.colorTextSecondary }}>{label}</span>
                    </span>
                  );
                })}
              </div>
            </section>
          );
        })}
      </Flex>
    </Flex>
  );
}
