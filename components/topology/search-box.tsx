"use client";

import { useQuery } from "@tanstack/react-query";
import { SearchOutlined } from "@ant-design/icons";
import { AutoComplete, Button, Select, Space } from "antd";
import { useTranslations } from "next-intl";
import { forwardRef, useRef, useState, type ComponentRef } from "react";
import { useDebounced } from "@/components/primitives/use-debounced";
import { searchFields, type SearchField, type SearchHit } from "@/lib/topology/model";
import { fetchSearch } from "./queries";
import { topologyKeys } from "./query-keys";

interface Props {
  cluster: string;
  initialQuery: string;
  field: SearchField;
  /** A rank table loaded in the browser: ranks are looked up there instead of in the inventory's order. */
  fileRanks: Map<number, string> | null;
  onFieldChange: (field: SearchField) => void;
  onLand: (hit: SearchHit, query: string) => void;
  onNoMatch: (query: string) => void;
}

function localRankHit(fileRanks: Map<number, string> | null, q: string, field: SearchField): SearchHit | null {
  if (!fileRanks || (field !== "rank" && field !== "any") || !/^\d+$/.test(q.trim())) return null;
  const id = fileRanks.get(Number(q.trim()));
  if (!id) return null;
  const slash = id.lastIndexOf("/d");
  const serverId = id.slice(0, slash);
  return { kind: "die", id, label: `${serverId} · die ${id.slice(slash + 2)}`, field: "rank", value: q.trim(), superPodId: null, serverId };
}

/** Search by server id, host IP, device IP, super device id or rank; Enter lands on the first hit. */
export const TopologySearch = forwardRef<ComponentRef<typeof AutoComplete>, Props>(function TopologySearch(
  { cluster, initialQuery, field, fileRanks, onFieldChange, onLand, onNoMatch },
  ref,
) {
  const t = useTranslations("topology.search");
  const [text, setText] = useState(initialQuery);
  const open = useRef(false);
  const q = useDebounced(text.trim(), 200);
  const useServerRanks = !(fileRanks && field === "rank");
  const query = useQuery({
    queryKey: topologyKeys.search(cluster, q, field),
    queryFn: ({ signal }) => fetchSearch(cluster, q, field, signal),
    enabled: q.length > 0 && useServerRanks,
    staleTime: 60_000,
  });
  // Suggestions only for what is in the box now: a stale list would let Enter pick a hit of the previous query.
  const current = q === text.trim() && query.data !== undefined;
  const local = localRankHit(fileRanks, q, field);
  const remote = current ? query.data.hits.filter((hit) => !(fileRanks && hit.field === "rank")) : [];
  const hits = [...(local && q === text.trim() ? [local] : []), ...remote];

  const land = async (value: string) => {
    const v = value.trim();
    if (!v) return;
    const localHit = localRankHit(fileRanks, v, field);
    (document.activeElement as HTMLElement | null)?.blur();
    if (localHit) return onLand(localHit, v);
    const result = useServerRanks ? await fetchSearch(cluster, v, field) : { hits: [] };
    const first = result.hits.find((hit) => !(fileRanks && hit.field === "rank"));
    if (first) onLand(first, v);
    else onNoMatch(v);
  };

  return (
    <Space.Compact style={{ minWidth: 420 }}>
      <Select
        aria-label={t("field")}
        value={field}
        onChange={onFieldChange}
        style={{ width: 150 }}
        options={searchFields.map((f) => ({ value: f, label: t(`fields.${f}`) }))}
      />
      <AutoComplete
        ref={ref}
        aria-label={t("label")}
        placeholder={t("placeholder")}
        allowClear
        value={text}
        onChange={(value: string) => setText(value ?? "")}
        style={{ width: 300 }}
        options={hits.map((hit) => ({
          value: `${hit.kind}:${hit.id}`,
          label: (
            <span>
              <strong>{hit.label}</strong> · {t(`fields.${hit.field}`)} {hit.value}
            </span>
          ),
        }))}
        onSelect={(value: string) => {
          const hit = hits.find((h) => `${h.kind}:${h.id}` === value);
          if (hit) {
            setText(hit.value);
            (document.activeElement as HTMLElement | null)?.blur();
            onLand(hit, hit.value);
          }
        }}
        defaultActiveFirstOption
        onOpenChange={(next) => {
          open.current = next;
        }}
        onInputKeyDown={(event) => {
          // With suggestions open, Enter picks the highlighted one (the best hit); otherwise it searches and lands.
          if (event.key === "Enter" && (!open.current || hits.length === 0)) void land(text);
        }}
      />
      <Button type="primary" icon={<SearchOutlined />} aria-label={t("submit")} onClick={() => void land(text)} />
    </Space.Compact>
  );
});
