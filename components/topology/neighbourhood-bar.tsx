"use client";

import { Button, Select, Space, Typography } from "antd";
import { useTranslations } from "next-intl";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import { MAX_HOPS, type TopologyView } from "@/lib/topology/model";
import type { ViewExpand } from "@/lib/topology/url";

interface Props {
  view: TopologyView;
  expand: ViewExpand;
  /** The link kinds of this cluster (the legend's). */
  kinds: readonly LinkKind[];
  /** A die of this server that is selected: the neighbourhood can start from it. */
  selectedDie: string | null;
  onChange: (next: Partial<ViewExpand>) => void;
}

/**
 * A server view's neighbourhood: how many hops (none: the server alone), along which link kinds, from the whole server
 * or one die; and what the answer drew and left out (the view is bounded).
 */
export function NeighbourhoodBar({ view, expand, kinds, selectedDie, onChange }: Props) {
  const t = useTranslations("topology.neighbourhood");
  const tLinks = useTranslations("topology.links");
  const n = view.neighbourhood;
  return (
    <div role="group" aria-label={t("title")} style={{ display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center" }}>
      <Space wrap size={8}>
        <span>{t("title")}</span>
        <Select
          aria-label={t("hops")}
          value={expand.hops}
          style={{ width: 150 }}
          onChange={(hops: number) => onChange({ hops })}
          options={Array.from({ length: MAX_HOPS + 1 }, (_, hops) => ({ value: hops, label: hops === 0 ? t("none") : t("hopCount", { count: hops }) }))}
        />
        <Select
          aria-label={t("via")}
          mode="multiple"
          allowClear
          disabled={expand.hops === 0}
          placeholder={t("allKinds")}
          value={expand.via.filter((kind) => kinds.includes(kind))}
          style={{ minWidth: 220 }}
          maxTagCount="responsive"
          onChange={(via: LinkKind[]) => onChange({ via })}
          options={kinds.map((kind) => ({ value: kind, label: tLinks(kind) }))}
        />
        {expand.hops > 0 &&
          (expand.from ? (
            <Button onClick={() => onChange({ from: null })}>{t("fromServer")}</Button>
          ) : (
            <Button disabled={!selectedDie} onClick={() => selectedDie && onChange({ from: selectedDie })}>
              {t("fromDie")}
            </Button>
          ))}
      </Space>
      {n && (
        <Typography.Text type="secondary" data-testid="neighbourhood-summary">
          {t("summary", { from: n.from ?? view.id ?? "", hops: n.hops, dies: n.drawn, servers: n.servers })}
          {n.omitted > 0 ? ` · ${t(n.reachedCapped ? "omittedAtLeast" : "omitted", { count: n.omitted, cap: n.cap })}` : ""}
        </Typography.Text>
      )}
    </div>
  );
}
