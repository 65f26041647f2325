"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Flex, Radio, Select, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useCan } from "@/components/auth/current-user";
import { useClusters } from "@/components/clusters/use-clusters";
import { affinityKeys, fetchClusterLayouts, fetchServerLayout, saveServerLayout, type LayoutTexts, type StoredLayout } from "./api";

interface Props {
  cluster: string | undefined;
  server: string | undefined;
  onPick: (cluster: string | undefined, server: string | undefined) => void;
  /** Called once per stored layout fetched, with its texts, to fill the text areas. */
  onLoaded: (stored: StoredLayout) => void;
  texts: LayoutTexts;
}

/**
 * A stored server (cluster → server) whose layout the page loads instead of pasted texts, and, for editors, a way to
 * store the texts on the page for that server or every server of its model.
 */
export function ServerPicker({ cluster, server, onPick, onLoaded, texts }: Props) {
  const t = useTranslations("affinity");
  const { message } = App.useApp();
  const canWrite = useCan("write");
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<"server" | "model">("server");
  const clusters = useClusters();
  const servers = useQuery({
    queryKey: affinityKeys.clusterLayouts(cluster ?? ""),
    queryFn: ({ signal }) => fetchClusterLayouts(cluster!, signal),
    enabled: cluster !== undefined,
  });
  const stored = useQuery({
    queryKey: affinityKeys.serverLayout(cluster ?? "", server ?? ""),
    queryFn: ({ signal }) => fetchServerLayout(cluster!, server!, signal),
    enabled: cluster !== undefined && server !== undefined,
  });
  // Each stored layout fetched fills the page once (a refetch of the same version does not overwrite edits).
  const loadedAt = useRef<string | null>(null);
  const fill = useEffectEvent(onLoaded);
  useEffect(() => {
    const data = stored.data;
    if (!data || data.lscpuText === null) return;
    const stamp = `${cluster}/${data.serverId}@${data.updatedAt}`;
    if (stamp === loadedAt.current) return;
    loadedAt.current = stamp;
    fill(data);
  }, [stored.data, cluster]);

  const save = useMutation({
    mutationFn: () => saveServerLayout(cluster!, server!, { ...texts, scope }),
    onSuccess: async (answer) => {
      message.success(t("saved", { count: answer.serverIds.length }));
      await queryClient.invalidateQueries({ queryKey: ["clusters", cluster] });
    },
    onError: (error) => message.error(t("failed", { message: error.message })),
  });

  const entry = servers.data?.servers.find((s) => s.serverId === server);
  return (
    <Flex gap={8} wrap align="end" data-testid="affinity-server-picker">
      <Flex vertical>
        <Typography.Text>{t("pickCluster")}</Typography.Text>
        <Select
          aria-label={t("pickCluster")}
          style={{ minWidth: 220 }}
          allowClear
          loading={clusters.isPending}
          value={cluster}
          placeholder={t("pickClusterPlaceholder")}
          onChange={(value?: string) => onPick(value, undefined)}
          options={(clusters.data ?? []).map((c) => ({ value: c.slug, label: c.name }))}
        />
      </Flex>
      <Flex vertical>
        <Typography.Text>{t("pickServer")}</Typography.Text>
        <Select
          aria-label={t("pickServer")}
          style={{ minWidth: 280 }}
          allowClear
          showSearch
          disabled={cluster === undefined}
          loading={servers.isFetching}
          value={server}
          placeholder={t("pickServerPlaceholder")}
          onChange={(value?: string) => onPick(cluster, value)}
          options={(servers.data?.servers ?? []).map((s) => ({
            value: s.serverId,
            label: `${s.serverId} · ${s.model}${s.stored ? "" : ` · ${t("noLayoutStored")}`}`,
          }))}
        />
      </Flex>
      {server !== undefined && (
        <Typography.Text type="secondary" data-testid="affinity-server-state">
          {stored.isPending
            ? t("loadingLayout")
            : stored.data?.lscpuText
              ? t("layoutLoaded", { server, model: stored.data.model })
              : t("noLayoutForServer", { server })}
        </Typography.Text>
      )}
      {canWrite && server !== undefined && (
        <Flex gap={8} align="center">
          <Radio.Group
            value={scope}
            onChange={(event) => setScope(event.target.value as "server" | "model")}
            options={[
              { value: "server", label: t("scopeServer") },
              { value: "model", label: t("scopeModel", { model: entry?.model ?? "" }) },
            ]}
          />
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!texts.lscpu.trim()}>
            {t("saveLayout")}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
