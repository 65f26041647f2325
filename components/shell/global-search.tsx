"use client";

import { SearchOutlined } from "@ant-design/icons";
import { useQueries, useQuery } from "@tanstack/react-query";
import { AutoComplete } from "antd";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ComponentRef } from "react";
import { landingViewOf, topologyQuery } from "@/lib/topology/url";
import { useClusters } from "@/components/clusters/use-clusters";
import { isTyping } from "@/components/primitives/is-typing";
import { useDebounced } from "@/components/primitives/use-debounced";
import { listRankTables, rankTablesKey } from "@/components/rank-tables/api";
import { fetchSearch } from "@/components/topology/queries";
import { topologyKeys } from "@/components/topology/query-keys";

const PER_GROUP = 6;

/**
 * The top bar's search (`/` focuses it): servers and dies of the current cluster (of every cluster when none is
 * chosen) by server id, host IP, device IP or super device id, and saved rank tables by name. A hit opens the
 * topology view that shows it, selected, or the rank table.
 */
export function GlobalSearch() {
  const t = useTranslations("topbar");
  const tf = useTranslations("topology.search");
  const router = useRouter();
  const searchParams = useSearchParams();
  const input = useRef<ComponentRef<typeof AutoComplete>>(null);
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 200);
  const chosen = searchParams.get("cluster");
  const clusters = useClusters();
  const searched = (clusters.data ?? []).filter((cluster) => !chosen || cluster.slug === chosen);
  const hits = useQueries({
    queries: searched.map((cluster) => ({
      queryKey: topologyKeys.search(cluster.slug, q, "any"),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSearch(cluster.slug, q, "any", signal),
      enabled: q.length > 0,
      staleTime: 60_000,
    })),
  });
  const tables = useQuery({ queryKey: rankTablesKey, queryFn: listRankTables, enabled: q.length > 0, staleTime: 30_000 });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A page with a search of its own (the topology's) takes `/` first and marks the event handled.
      if (event.key !== "/" || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Suggestions only for what is in the box now, so Enter never opens a hit of the previous text.
  const current = q.length > 0 && q === text.trim();
  const lower = q.toLowerCase();
  const namedTables = current ? (tables.data ?? []).filter((table) => table.name.toLowerCase().includes(lower)).slice(0, PER_GROUP) : [];
  const options = current
    ? [
        ...searched.flatMap((cluster, i) => {
          const found = hits[i]?.data?.hits.slice(0, PER_GROUP) ?? [];
          if (found.length === 0) return [];
          return [
            {
              label: cluster.name,
              options: found.map((hit) => ({
                value: `/topology?${topologyQuery({ cluster: cluster.slug, ...landingViewOf(hit), q: hit.value })}`,
                label: (
                  <span>
                    <strong>{hit.label}</strong> · {tf(`fields.${hit.field}`)} {hit.value}
                  </span>
                ),
              })),
            },
          ];
        }),
        ...(namedTables.length > 0
          ? [{ label: t("searchRankTables"), options: namedTables.map((table) => ({ value: `/rank-tables/${table.id}`, label: <span>{table.name}</span> })) }]
          : []),
      ]
    : [];
  const searching = current && (hits.some((hit) => hit.isFetching) || tables.isFetching);

  return (
    <AutoComplete
      ref={input}
      aria-label={t("search")}
      placeholder={t("searchPlaceholder")}
      prefix={<SearchOutlined aria-hidden />}
      allowClear
      options={options}
      value={text}
      onChange={(value: string) => setText(value ?? "")}
      onSelect={(href: string) => {
        setText("");
        input.current?.blur();
        router.push(href);
      }}
      defaultActiveFirstOption
      notFoundContent={current && !searching ? t("searchNoMatch", { q }) : null}
      style={{ width: 320 }}
    />
  );
}
