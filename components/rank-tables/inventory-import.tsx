"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, InputNumber, Segmented, Select, Space, TreeSelect, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useClusters } from "@/components/clusters/use-clusters";
import type { ClusterLinkValue } from "./cluster-link";
import type { InventoryOutline } from "@/lib/rank-table-workspace/from-inventory";

export interface InventoryActions {
  outline: (clusterId: number) => Promise<{ ok: true; value: InventoryOutline } | { ok: false; error: string }>;
  build: (input: { clusterId: number; superPods?: string[]; servers?: string[]; version: "1.0" | "1.2"; basePort?: number }) => Promise<{ ok: true; value: string } | { ok: false; error: string }>;
  /** Told which cluster a table was built from, so that saving it links it to that cluster. */
  onBuilt?: (link: ClusterLinkValue) => void;
}

/** Build a table from the inventory: a cluster, optionally some of its super pods or servers, the version, ports. */
export function InventoryImport({ actions, onImport }: { actions: InventoryActions; onImport: (text: string, name: string) => void }) {
  const t = useTranslations("rankTables.import");
  const { message } = App.useApp();
  const clusters = useClusters();
  const [clusterId, setClusterId] = useState<number>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [version, setVersion] = useState<"1.0" | "1.2">("1.2");
  const [basePort, setBasePort] = useState<number | null>(null);
  const [building, setBuilding] = useState(false);
  const outline = useQuery({
    queryKey: ["rank-tables", "inventory-outline", clusterId],
    enabled: clusterId !== undefined,
    queryFn: async () => {
      const result = await actions.outline(clusterId!);
      if (!result.ok) throw new Error(result.error);
      return result.value;
    },
  });
  const cluster = clusters.data?.find((candidate) => candidate.id === clusterId);
  const treeData = outline.data
    ? [
        ...outline.data.superPods.map((pod) => ({ value: `pod:${pod.id}`, title: t("superPod", { id: pod.id, count: pod.servers.length }), children: pod.servers.map((server) => ({ value: `server:${server}`, title: server })) })),
        ...outline.data.servers.map((server) => ({ value: `server:${server}`, title: server })),
      ]
    : [];

  const build = async () => {
    if (clusterId === undefined) return;
    setBuilding(true);
    try {
      const result = await actions.build({
        clusterId,
        superPods: chosen.filter((key) => key.startsWith("pod:")).map((key) => key.slice(4)),
        servers: chosen.filter((key) => key.startsWith("server:")).map((key) => key.slice(7)),
        version,
        basePort: basePort ?? undefined,
      });
      if (!result.ok) {
        message.error(result.error);
        return;
      }
      actions.onBuilt?.({ clusterId, clusterName: cluster?.name ?? null });
      onImport(result.value, cluster?.slug ?? "cluster");
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setBuilding(false);
    }
  };

  return (
    <Space orientation="vertical" style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary">{t("inventoryHint")}</Typography.Paragraph>
      {clusters.isError && <Alert type="error" title={clusters.error.message} />}
      <Space wrap>
        <Select
          aria-label={t("cluster")}
          placeholder={t("cluster")}
          loading={clusters.isPending}
          style={{ width: 300 }}
          value={clusterId}
          options={clusters.data?.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
          onChange={(value: number) => {
            setClusterId(value);
            setChosen([]);
            const mode = clusters.data?.find((candidate) => candidate.id === value)?.mode;
            setVersion(mode === "ai-server" ? "1.0" : "1.2");
          }}
        />
        <TreeSelect
          aria-label={t("parts")}
          placeholder={t("allOfIt")}
          style={{ width: 360 }}
          treeCheckable
          // A super pod holds dozens of servers: typing part of a server id or super pod finds it.
          showSearch={{ treeNodeFilterProp: "title" }}
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
          disabled={!outline.data}
          value={chosen}
          onChange={setChosen}
          treeData={treeData}
          maxTagCount={4}
        />
      </Space>
      <Space wrap>
        <Segmented<"1.0" | "1.2"> value={version} onChange={setVersion} options={[{ value: "1.2", label: t("version12") }, { value: "1.0", label: t("version10") }]} />
        <InputNumber aria-label={t("basePort")} placeholder={t("basePort")} min={1024} max={65535} value={basePort} onChange={setBasePort} />
        <Button type="primary" loading={building} disabled={clusterId === undefined} onClick={() => void build()}>
          {t("build")}
        </Button>
      </Space>
    </Space>
  );
}
