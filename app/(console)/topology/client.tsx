"use client";

import { AimOutlined, CloudUploadOutlined, FileAddOutlined, ReloadOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Breadcrumb, Button, Empty, Skeleton, Space, Typography, Upload } from "antd";
import dynamic from "next/dynamic";
import { Link } from "@/components/primitives/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentRef } from "react";
import { ApiRequestError } from "@/components/primitives/fetch-json";
import { useLiveFaults } from "@/components/faults/use-live-faults";
import { isTyping } from "@/components/primitives/is-typing";
import { PageHeading } from "@/components/primitives/page-heading";
import { useThemeControl } from "@/components/providers/app-providers";
import { nodeKey } from "@/components/topology/chart-option";
import { AttentionList } from "@/components/topology/attention-list";
import { DetailsPanel } from "@/components/topology/details-panel";
import { TopologyLegend } from "@/components/topology/legend";
import { linkKindsOf } from "@/lib/inventory/vocabulary";
import { loadDieTable, loadTopologyGraph } from "@/components/topology/loaders";
import { fabricOverlay } from "@/components/topology/fabric-overlay";
import { fetchNodeDetails, fetchTopologyView } from "@/components/topology/queries";
import { topologyKeys } from "@/components/topology/query-keys";
import { NeighbourhoodBar } from "@/components/topology/neighbourhood-bar";
import { TopologySearch } from "@/components/topology/search-box";
import { useChartLabels } from "@/components/topology/use-chart-labels";
import { RankSourceSelect, SavedRanksFailed } from "@/components/topology/rank-source-select";
import { useRankSource } from "@/components/topology/use-rank-source";
import { ViewSummary } from "@/components/topology/view-summary";
import type { Crumb, NodeKind, SearchHit, TopologyNode } from "@/lib/topology/model";
import { drawsRows, landingViewOf, parseSelection, topologyQuery, topologySearchParams, viewOf, type TopologySearchParams } from "@/lib/topology/url";
import { DataAsOf } from "@/components/primitives/data-as-of";
import { urlStateNow } from "@/components/primitives/use-url-state";

// ECharts is loaded and evaluated in steps, each in a task of its own, rather than inside the hydration's.
const TopologyGraph = dynamic(() => loadTopologyGraph().then((module) => module.TopologyGraph), {
  ssr: false,
  loading: () => <Skeleton active paragraph={{ rows: 10 }} style={{ padding: 24 }} />,
});

// Only the server view has the die table, and only an editor opening it needs the import drawer: their modules (antd's
// Table, Drawer, Upload…) are evaluated when they are first shown, not inside the page's hydration. The table is
// drawn on the client only: a server-rendered one could be clicked before its code has loaded, and the click lost.
const DieTable = dynamic(() => loadDieTable().then((module) => module.DieTable), { ssr: false });
const ImportDrawer = dynamic(() => import("@/components/topology/import-drawer").then((module) => module.ImportDrawer), { ssr: false });

/** The topology page; its first view comes from the server, in the query cache under `topologyKeys.view`. */
export function TopologyClient({ defaultCluster }: { defaultCluster: string | null }) {
  const t = useTranslations("topology");
  const { message } = App.useApp();
  const { theme } = useThemeControl();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const state = useMemo(() => topologySearchParams.parse(Object.fromEntries(searchParams)), [searchParams]);
  const cluster = state.cluster ?? defaultCluster;
  const { id: viewId, expand } = viewOf(state);
  const selection = parseSelection(state.sel);
  const selectedKey = selection ? nodeKey(selection) : null;
  const searchRef = useRef<ComponentRef<typeof TopologySearch>>(null);
  const [resetToken, setResetToken] = useState(0);
  // The server view's die table is loaded and filled once the graph has been drawn: both at once split the main
  // thread, and the graph, above it, was drawn 0.5 s later (issue 21: navigation to drawn under 2 s). Per server: the
  // next server opened waits for its own graph too.
  const [graphDrawnFor, setGraphDrawnFor] = useState<string | null>(null);
  // The die table's page size, chosen once for every server opened after (the table is made anew per server).
  const [diePageSize, setDiePageSize] = useState<number>();
  const [importing, setImporting] = useState(false);
  // Mounted from the first opening on, so that closing it animates.
  const [importOpened, setImportOpened] = useState(false);
  // Live health: a fault event written anywhere refreshes this cluster's views (server-sent events, no polling).
  const queryClient = useQueryClient();
  const refreshHealth = useCallback(() => void queryClient.invalidateQueries({ queryKey: topologyKeys.cluster(cluster ?? "") }), [queryClient, cluster]);
  useLiveFaults(cluster, refreshHealth);

  /** URL changes go through the History API (Next keeps useSearchParams in step): no server round trip. */
  const navigate = useCallback(
    (next: Partial<TopologySearchParams>, mode: "push" | "replace" = "push") => {
      // Over the URL as it is now, not as last rendered: two changes in a row keep both (components/primitives/use-url-state.ts).
      const current = urlStateNow(topologySearchParams);
      // A highlight belongs to its selection: another selection drops it unless it says otherwise.
      const hl = "hl" in next ? next.hl : "sel" in next && next.sel !== current.sel ? undefined : current.hl;
      const query = topologyQuery({ ...current, cluster: current.cluster ?? defaultCluster ?? undefined, ...next, hl });
      const url = query ? `${pathname}?${query}` : pathname;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [defaultCluster, pathname],
  );

  // The highlight of the selection (a die's plane ports, a switch's blast radius) reads the details the panel shows.
  const highlighted = useQuery({
    queryKey: topologyKeys.node(cluster ?? "", selection?.kind ?? null, selection?.id ?? null),
    queryFn: ({ signal }) => fetchNodeDetails(cluster!, selection!.kind, selection!.id, signal),
    enabled: cluster !== null && selection !== null && state.hl !== undefined,
  });

  const viewQueryKey = topologyKeys.view(cluster ?? "", state.level, viewId, expand);
  const view = useQuery({
    queryKey: viewQueryKey,
    queryFn: ({ signal }) => fetchTopologyView(cluster!, state.level, viewId, signal, expand),
    enabled: cluster !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  // What numbers the dies: the inventory, a saved rank table, or a file opened here.
  const { fileRanks, savedId, savedRanks, chosen, loadRankFile } = useRankSource(state.ranks, () => navigate({ ranks: "file" }, "replace"));

  // A super pod or server this cluster does not have (another cluster picked in the top bar, a node that left the
  // inventory): say so and show the cluster instead of an empty page.
  const missing = view.error instanceof ApiRequestError && view.error.status === 404 && state.level !== "cluster" ? view.error : null;
  useEffect(() => {
    if (!missing) return;
    message.warning(t("notInCluster", { id: state.id ?? "" }));
    navigate({ level: "cluster", id: undefined, sel: undefined }, "replace");
  }, [missing, message, t, state.id, navigate]);

  // Keyboard: `/` focuses the search, Esc clears the selection.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = isTyping(event.target);
      if (event.key === "/" && !typing) {
        event.preventDefault();
        searchRef.current?.focus();
      } else if (event.key === "Escape" && state.sel && !typing) {
        navigate({ sel: undefined });
      }
    };
    // Capture: `/` reaches this page's search before the top bar's, which leaves a handled key alone.
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [navigate, state.sel]);

  const labels = useChartLabels();

  // Another server's neighbourhood keeps the hops and kinds, not the seed die (a die of the server left).
  const open = useCallback(
    (kind: NodeKind, id: string) => {
      if (kind === "superpod") navigate({ level: "superpod", id, sel: undefined, from: undefined });
      else if (kind === "row" || kind === "rack") navigate({ level: kind, id, sel: undefined, from: undefined });
      else if (kind === "server") navigate({ level: "server", id, sel: undefined, from: undefined });
    },
    [navigate],
  );

  /** Shows a node in the view that contains it, selected. */
  const land = useCallback(
    (target: Parameters<typeof landingViewOf>[0], extra: Partial<TopologySearchParams> = {}) => {
      navigate({ ...landingViewOf(target), ...extra });
    },
    [navigate],
  );

  const onLand = useCallback(
    (hit: SearchHit, q: string) => {
      // A die from a loaded rank table may name a server the search did not resolve: the view resolves its pod.
      land({ kind: hit.kind, id: hit.id, serverId: hit.serverId, superPodId: hit.superPodId, rackId: hit.rackId }, { q });
    },
    [land],
  );

  /** Where a node is selected: in this view when it draws it, else in the view that shows it (the link's href too). */
  const selectionPlace = useCallback(
    (kind: NodeKind, id: string): Partial<TopologySearchParams> => {
      const inView = view.data?.nodes.some((n) => n.kind === kind && n.id === id);
      return inView ? { sel: `${kind}:${id}` } : landingViewOf({ kind, id, rowsDrawn: view.data ? drawsRows(view.data) : false });
    },
    [view.data],
  );
  const selectInView = useCallback((kind: NodeKind, id: string) => navigate(selectionPlace(kind, id)), [navigate, selectionPlace]);
  // The die table is memoised: its props stay the same objects while the view and the selection do.
  const dies = useMemo(() => view.data?.nodes.filter((n) => n.kind === "die") ?? [], [view.data]);
  const selectDie = useCallback((node: TopologyNode) => navigate({ sel: nodeKey(node) }), [navigate]);
  // Kept between renders: the graph draws again whenever its overlay is a new object.
  const overlay = useMemo(
    () => (view.data && state.hl && highlighted.data ? (fabricOverlay(view.data, state.hl, highlighted.data) ?? undefined) : undefined),
    [view.data, state.hl, highlighted.data],
  );

  if (!cluster) {
    return (
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <PageHeading title={t("title")} subtitle={t("subtitle")} />
        <Empty description={t("noClusters")} />
      </Space>
    );
  }

  const data = view.data;
  const crumbLabel = (crumb: Crumb) => (crumb.level === "superpod" ? t("labels.superPod", { id: crumb.id ?? "" }) : crumb.label);
  const kinds = linkKindsOf(data?.nodes.map((n) => n.model) ?? [], [...(data?.links ?? []), ...(data?.external ?? [])].map((l) => l.kind));
  const selectedDie = selection?.kind === "die" && data?.level === "server" && selection.id.startsWith(`${data.id}/`) ? selection.id : null;
  const ranks = chosen?.ranks;

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <PageHeading
        title={t("title")}
        subtitle={data ? `${data.cluster.name} · ${t("countsLong", { superPods: data.counts.superPods, servers: data.counts.servers, npus: data.counts.npus, dies: data.counts.dies })}` : t("subtitle")}
        extra={
          <TopologySearch
            ref={searchRef}
            cluster={cluster}
            initialQuery={state.q ?? ""}
            field={state.field}
            fileRanks={chosen ? chosen.dies : null}
            onFieldChange={(field) => navigate({ field }, "replace")}
            onLand={onLand}
            onNoMatch={(q) => message.warning(t("search.noMatch", { q }))}
          />
        }
      />
      <div style={{ display: "flex", flexWrap: "wrap", gap: 12, alignItems: "center", justifyContent: "space-between" }}>
        <nav aria-label={t("breadcrumb")}>
          <Breadcrumb
            items={(data?.path ?? []).map((crumb, i, all) => ({
              key: `${crumb.level}:${crumb.id}`,
              title:
                i === all.length - 1 ? (
                  <span aria-current="page">{crumbLabel(crumb)}</span>
                ) : (
                  <Link
                    href={`${pathname}?${topologyQuery({ cluster, level: crumb.level, id: crumb.id ?? undefined })}`}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate({ level: crumb.level, id: crumb.id ?? undefined, sel: undefined });
                    }}
                  >
                    {crumbLabel(crumb)}
                  </Link>
                ),
            }))}
          />
        </nav>
        <DataAsOf answer={data} />
        <Space wrap>
          <span>{t("ranks.label")}</span>
          <RankSourceSelect
            value={chosen || savedId !== null ? state.ranks : "inventory"}
            clusterId={data?.cluster.id}
            fileName={fileRanks?.name ?? null}
            loading={savedRanks.isFetching}
            onChange={(value) => navigate({ ranks: value }, "replace")}
          />
          <Upload
            accept=".json,.jsonc,application/json,text/plain"
            showUploadList={false}
            beforeUpload={(file) => {
              void loadRankFile(file);
              return false;
            }}
          >
            <Button icon={<FileAddOutlined />}>{t("ranks.loadFile")}</Button>
          </Upload>
          <Button icon={<AimOutlined />} onClick={() => setResetToken((n) => n + 1)}>
            {t("fit")}
          </Button>
          <Button
            icon={<CloudUploadOutlined />}
            onClick={() => {
              setImporting(true);
              setImportOpened(true);
            }}
          >
            {t("import.open")}
          </Button>
        </Space>
      </div>
      {state.ranks === "file" && !fileRanks && <Alert type="info" showIcon title={t("ranks.fileMissing")} />}
      {savedRanks.isError && savedId !== null && <SavedRanksFailed savedId={savedId} clusterId={data?.cluster.id} />}
      {view.isError ? (
        <Alert
          type="error"
          showIcon
          title={t("loadError")}
          description={view.error.message}
          action={
            <Space>
              <Button icon={<ReloadOutlined />} onClick={() => view.refetch()}>
                {t("retry")}
              </Button>
              <Button onClick={() => navigate({ level: "cluster", id: undefined, sel: undefined })}>{t("backToCluster")}</Button>
            </Space>
          }
        />
      ) : (
        <div style={{ display: "flex", gap: 16, alignItems: "stretch", flexWrap: "wrap" }}>
          <section aria-label={t("graph")} style={{ flex: "1 1 560px", minWidth: 0, display: "flex", flexDirection: "column", gap: 8 }}>
            <ViewSummary view={data} queryKey={viewQueryKey} />
            {data?.level === "server" && (
              <NeighbourhoodBar
                view={data}
                expand={expand}
                kinds={kinds}
                selectedDie={selectedDie}
                onChange={(next) => {
                  const merged = { ...expand, ...next };
                  navigate({ hops: merged.hops, via: merged.via.length ? [...merged.via] : undefined, from: merged.hops > 0 ? (merged.from ?? undefined) : undefined });
                }}
              />
            )}
            <div style={{ height: "calc(100vh - 300px)", minHeight: 440, border: "1px solid var(--topology-border, rgba(128,128,128,.25))", borderRadius: 6 }}>
              {data ? (
                <TopologyGraph
                  view={data}
                  selected={selectedKey}
                  ranks={ranks}
                  theme={theme}
                  labels={labels}
                  resetToken={resetToken}
                  overlay={overlay}
                  ariaLabel={t("graphAria", { level: t(`levels.${data.level}`), nodes: data.nodes.length, links: data.links.length })}
                  onSelect={(node) => navigate({ sel: node ? nodeKey(node) : undefined }, node ? "push" : "replace")}
                  onDrill={(node) => open(node.kind, node.id)}
                  onDrawn={() => setGraphDrawnFor(data.id)}
                />
              ) : (
                <Skeleton active paragraph={{ rows: 10 }} style={{ padding: 24 }} />
              )}
            </div>
            {data && <AttentionList view={data} theme={theme} onOpen={(node: TopologyNode) => open(node.kind, node.id)} />}
            <TopologyLegend theme={theme} anyKnown={data?.nodes.some((n) => n.health !== "unknown") ?? false} kinds={kinds} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("hint")}
            </Typography.Text>
          </section>
          <aside style={{ flex: "0 0 340px", minWidth: 0 }}>
            <DetailsPanel
              cluster={cluster}
              selection={selection}
              theme={theme}
              fileRanks={chosen}
              onOpen={open}
              onSelect={selectInView}
              selectionHref={(kind, id) => `${pathname}?${topologyQuery({ ...state, cluster, ...selectionPlace(kind, id), hl: undefined })}`}
              onClose={() => navigate({ sel: undefined, hl: undefined })}
              highlight={state.hl ?? null}
              onHighlight={(hl, details) => {
                // What a switch takes down is seen across its super pod: the highlight opens the pod's view.
                const pod = details.node.superPodId;
                if (hl === "impact" && pod && !(state.level === "superpod" && state.id === pod)) navigate({ level: "superpod", id: pod, hl });
                else navigate({ hl: hl ?? undefined });
              }}
            />
          </aside>
        </div>
      )}
      {importOpened && <ImportDrawer cluster={cluster} clusterId={data?.cluster.id} open={importing} onClose={() => setImporting(false)} />}
      {data?.level === "server" && graphDrawnFor === data.id && (
        <DieTable dies={dies} selectedKey={selectedKey} ranks={ranks} onSelect={selectDie} pageSize={diePageSize} onPageSize={setDiePageSize} />
      )}
    </Space>
  );
}
