"use client";

import { CloseOutlined, LinkOutlined, ZoomInOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Empty, Skeleton, Space, Tag, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import { memo, useDeferredValue, type ComponentProps, type ReactNode } from "react";
import { ServerCpuLayout } from "@/components/affinity/server-cpu-layout";
import type { NodeDetails, NodeKind, RankMembership } from "@/lib/topology/model";
import { ParameterPlaneNote, PlanePortsSection, PlaneSwitches, SwitchImpactSection } from "./fabric-details";
import { HealthLabel, LinkSample } from "./legend";
import { RecentFaultList } from "./recent-faults";
import { fetchNodeDetails } from "./queries";
import { topologyKeys } from "./query-keys";

interface Props {
  cluster: string;
  selection: { kind: NodeKind; id: string } | null;
  theme: "light" | "dark";
  fileRanks: { name: string; ranks: Map<string, number> } | null;
  onOpen: (kind: NodeKind, id: string) => void;
  onSelect: (kind: NodeKind, id: string) => void;
  /** The URL that selects a node, so peer links are real links (open in a new tab, copy). */
  selectionHref: (kind: NodeKind, id: string) => string;
  onClose: () => void;
  /** What the graph highlights for the selection: a die's plane ports, a switch's blast radius (the URL's `hl`). */
  highlight: Highlight | null;
  onHighlight: (highlight: Highlight | null, details: NodeDetails) => void;
}
type Highlight = "ports" | "impact";

/** Everything about the selected super pod, server, NPU or die: fields, links, rank-table memberships, faults. */
export function DetailsPanel({ cluster, selection, theme, fileRanks, onOpen, onSelect, selectionHref, onClose, highlight, onHighlight }: Props) {
  const t = useTranslations("topology");
  const format = useFormatter();
  const { message } = App.useApp();
  const query = useQuery({
    queryKey: topologyKeys.node(cluster, selection?.kind ?? null, selection?.id ?? null),
    queryFn: ({ signal }) => fetchNodeDetails(cluster, selection!.kind, selection!.id, signal),
    enabled: selection !== null,
  });

  if (!selection) {
    return (
      <Card size="small" title={t("details.title")} styles={{ body: { padding: 16 } }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("details.empty")} />
      </Card>
    );
  }

  const kindLabel = selection.kind === "plane" && selection.id.startsWith("param") ? t("kinds.parameterPlane") : t(`kinds.${selection.kind}`);
  // A rack's or row's id (rack128) means nothing to a reader; its label names it and its servers.
  const grouped = (selection.kind === "rack" || selection.kind === "row") && query.data;
  const title = grouped ? query.data.node.label : `${kindLabel} ${selection.id}`;
  return (
    <Card
      size="small"
      title={<span title={title}>{title}</span>}
      role="region"
      aria-label={t("details.title")}
      extra={
        <Space size={4}>
          <Button
            size="small"
            type="text"
            icon={<LinkOutlined />}
            aria-label={t("details.copyLink")}
            title={t("details.copyLink")}
            onClick={() => {
              void navigator.clipboard?.writeText(window.location.href).then(() => message.success(t("details.linkCopied")));
            }}
          />
          <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t("details.close")} title={t("details.close")} onClick={onClose} />
        </Space>
      }
      styles={{ body: { padding: 12, maxHeight: "calc(100vh - 250px)", overflow: "auto" } }}
    >
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t("details.loadError")}
          description={query.error.message}
          action={<Button onClick={() => query.refetch()}>{t("retry")}</Button>}
        />
      ) : (
        <DeferredDetailsBody
          key={`${selection.kind}:${selection.id}`}
          cluster={cluster}
          details={query.data}
          theme={theme}
          fileRanks={fileRanks}
          onOpen={onOpen}
          onSelect={onSelect}
          selectionHref={selectionHref}
          formatNumber={(n) => format.number(n)}
          highlight={highlight}
          onHighlight={onHighlight}
        />
      )}
    </Card>
  );
}

/**
 * The answer rendered in a deferred render, in slices between the browser's tasks, not in the query's notification
 * task, which re-renders its subscribers synchronously: a die's details (copyable fields, rank tables, faults) were
 * one task of 400–500 ms after its answer at load 7 (issue 21: no task over 50 ms). Every prop is deferred, not the
 * answer alone: the page re-renders synchronously on each of its own queries' notifications, and with new callbacks
 * each time the whole body rendered again in that task (a die selected: 100–110 ms after hydration, React's sync
 * render of the body and its recent faults). In the urgent render the memoised body keeps its props and is skipped.
 * Keyed by the selection, so another node's answer is never shown under this one's title while it renders.
 */
function DeferredDetailsBody(props: ComponentProps<typeof DetailsBody>) {
  const deferred = useDeferredValue<ComponentProps<typeof DetailsBody> | null>(props, null);
  return deferred ? <MemoDetailsBody {...deferred} /> : <Skeleton active paragraph={{ rows: 8 }} />;
}

function DetailsBody({
  cluster,
  details,
  theme,
  fileRanks,
  onOpen,
  onSelect,
  selectionHref,
  formatNumber,
  highlight,
  onHighlight,
}: {
  highlight: Props["highlight"];
  onHighlight: Props["onHighlight"];
  cluster: string;
  details: NodeDetails;
  theme: "light" | "dark";
  fileRanks: Props["fileRanks"];
  onOpen: Props["onOpen"];
  onSelect: Props["onSelect"];
  selectionHref: Props["selectionHref"];
  formatNumber: (n: number) => string;
}) {
  const t = useTranslations("topology");
  const node = details.node;
  const items: { key: string; label: string; children: ReactNode }[] = [];
  const add = (key: string, value: ReactNode) => {
    if (value === undefined) return;
    items.push({ key, label: t(`fields.${key}`), children: value === null || value === "" ? <Typography.Text type="secondary">—</Typography.Text> : value });
  };
  const mono = (value: string | number | null | undefined) =>
    value === null || value === undefined ? null : <Typography.Text code copyable={{ text: String(value) }}>{String(value)}</Typography.Text>;
  add("health", <HealthLabel health={node.health} theme={theme} />);
  if (node.kind === "superpod") add("superPodId", mono(node.superPodId));
  if (node.kind === "server" || node.kind === "npu" || node.kind === "die") add("serverId", mono(node.serverId));
  if (node.kind === "plane" && node.planeKind === "parameter") {
    if (node.superPodId) add("superPodId", node.superPodId);
    add("shape", node.shape ?? t("details.shapeUnknown"));
    add("attached", node.counts?.servers);
    add("ports", node.ports ?? null);
  } else if (node.kind === "plane") {
    add("superPodId", node.superPodId ?? null);
    add("planeIndex", node.planeIndex);
    add("switches", node.switches);
    add("attached", node.counts?.servers);
    add("uplinks", node.uplinks);
  }
  if (node.kind === "switch") {
    add("switchKind", node.switchKind ? t(`details.switchKinds.${node.switchKind}`) : null);
    if (node.serverId) add("serverId", mono(node.serverId));
    if (node.switchKind === "node-chip") add("chipId", node.switchIndex);
    add("superPodId", node.superPodId ?? null);
    add("planeKey", node.planeKey ? <Typography.Link href={selectionHref("plane", node.planeKey)} onClick={(e) => { e.preventDefault(); onSelect("plane", node.planeKey!); }}>{node.planeKey}</Typography.Link> : null);
    add("ports", node.ports ?? null);
    if (node.switchKind === "node-chip") add("uplinks", node.uplinks);
  }
  if (node.kind === "server" || node.kind === "superpod") {
    if (node.kind === "server") {
      add("superPodId", node.superPodId ?? null);
      add("hostIp", mono(node.hostIp));
      add("model", node.model ?? null);
    }
    if (node.counts) add("counts", t("countsShort", { servers: node.counts.servers, npus: node.counts.npus, dies: node.counts.dies }));
  }
  if (node.kind === "npu" || node.kind === "die") add("npuIndex", node.npuIndex);
  if (node.kind === "die") {
    add("deviceId", node.deviceId);
    add("dieIndex", node.dieIndex);
    add("superDeviceId", node.superDeviceId ?? null);
    add("deviceIp", mono(node.deviceIp));
    add("devicePort", node.devicePort ?? null);
    add("backupDeviceIp", mono(node.backupDeviceIp));
    add("backupDevicePort", node.backupDevicePort ?? null);
    add("hostPort", node.hostPort ?? null);
  }

  const drillLevel = node.kind === "superpod" || node.kind === "row" || node.kind === "rack" || node.kind === "server" ? node.kind : null;
  const fileRank = node.kind === "die" && fileRanks ? fileRanks.ranks.get(node.id) : undefined;
  // A saved table chosen for the view is listed with the others; a file loaded in this browser only here.
  const fileIsSaved = fileRanks !== null && details.rankTables.some((m) => m.table?.name === fileRanks.name);
  const rankItems = [
    ...details.rankTables.map((m) => ({
      key: m.table ? `table:${m.table.id}` : "inventory",
      label: m.table ? (
        <Link href={`/rank-tables/${m.table.id}`} title={t("details.revision", { revision: m.table.revision })}>
          {m.table.name}
        </Link>
      ) : (
        t("ranks.inventory")
      ),
      children: <RankSummary membership={m} formatNumber={formatNumber} />,
    })),
    ...(fileRanks && !fileIsSaved && node.kind === "die"
      ? [{ key: "file", label: fileRanks.name, children: fileRank === undefined ? t("details.notInFile") : formatNumber(fileRank) }]
      : []),
  ];
  const savedCount = details.rankTables.filter((m) => m.table !== null).length;

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      {drillLevel && (
        <Button type="primary" size="small" icon={<ZoomInOutlined />} onClick={() => onOpen(node.kind, node.id)}>
          {t(drillLevel === "superpod" ? "details.openSuperPod" : drillLevel === "row" ? "details.openRow" : drillLevel === "rack" ? "details.openRack" : "details.openServer")}
        </Button>
      )}
      <Descriptions size="small" column={1} bordered items={items} styles={{ label: { width: 150 } }} />
      {node.kind === "plane" && node.planeKind !== "parameter" && <PlaneReach node={node} />}
      {node.kind === "plane" && node.planeKind !== "parameter" && <PlaneSwitches node={node} onSelect={onSelect} selectionHref={selectionHref} />}
      {node.kind === "plane" && node.planeKind === "parameter" && <ParameterPlaneNote node={node} />}
      {details.impact && (
        <SwitchImpactSection
          impact={details.impact}
          node={node}
          highlighted={highlight === "impact"}
          onHighlight={(on) => onHighlight(on ? "impact" : null, details)}
          onSelect={onSelect}
          selectionHref={selectionHref}
        />
      )}
      {details.planePorts && (
        <PlanePortsSection
          ports={details.planePorts}
          highlighted={highlight === "ports"}
          onHighlight={(on) => onHighlight(on ? "ports" : null, details)}
          onSelect={onSelect}
          selectionHref={selectionHref}
        />
      )}
      {node.kind === "server" && node.serverId && <ServerCpuLayout cluster={cluster} serverId={node.serverId} />}
      {node.kind !== "plane" && node.kind !== "switch" && (
        <>
          <section aria-label={t("details.links")}>
            <Typography.Title level={3} style={{ fontSize: 14 }}>
              {t("details.links")}
            </Typography.Title>
            {details.links.length === 0 ? (
              <Typography.Text type="secondary">{t("details.noLinks")}</Typography.Text>
            ) : (
              <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {details.links.map((link) => (
                  <li key={`${link.kind}:${link.peerKind}:${link.peer}`} style={{ padding: "3px 0" }}>
                    <Space size={6} wrap>
                      <LinkSample kind={link.kind} />
                      <span>{t(`links.${link.kind}`)}</span>
                      <Typography.Link
                        href={selectionHref(link.peerKind, link.peer)}
                        onClick={(event) => {
                          event.preventDefault();
                          onSelect(link.peerKind, link.peer);
                        }}
                      >
                        {link.peerLabel}
                      </Typography.Link>
                      {link.count > 1 && <Tag>{t("details.paths", { count: link.count })}</Tag>}
                    </Space>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label={t("details.rankTables")}>
            <Typography.Title level={3} style={{ fontSize: 14 }}>
              {t("details.rankTables")}
            </Typography.Title>
            <Descriptions size="small" column={1} items={rankItems} />
            {savedCount === 0 && <Typography.Text type="secondary">{t("details.noSavedTables")}</Typography.Text>}
          </section>
        </>
      )}
      <section aria-label={t("details.faults")}>
        <Typography.Title level={3} style={{ fontSize: 14 }}>
          {t("details.faults")}
        </Typography.Title>
        {details.faults === null ? (
          <Typography.Text type="secondary">{t("details.noFaultData")}</Typography.Text>
        ) : (
          <RecentFaultList cluster={cluster} faults={details.faults} />
        )}
      </section>
    </Space>
  );
}

const MemoDetailsBody = memo(DetailsBody);

/**
 * What a bus plane's failure takes down: every server of the pod reaches the others through every plane (all-to-all),
 * so a faulty switch chip of the plane degrades the bus for the whole pod, not for one server.
 */
function PlaneReach({ node }: { node: NodeDetails["node"] }) {
  const t = useTranslations("topology.details");
  const faulty = node.health === "degraded" || node.health === "faulty";
  const values = { pod: node.superPodId ?? "", servers: node.counts?.servers ?? 0 };
  return (
    <Alert
      type={faulty ? "warning" : "info"}
      showIcon
      data-testid="plane-reach"
      title={faulty ? t("planeDegraded", values) : t("planeReach", values)}
      description={t("planeFaults", { index: node.planeIndex ?? 0 })}
    />
  );
}

function RankSummary({ membership, formatNumber }: { membership: RankMembership; formatNumber: (n: number) => string }) {
  const t = useTranslations("topology");
  if (membership.ranks.length > 0) return <>{membership.ranks.map(formatNumber).join(", ")}</>;
  return <>{t("details.rankRange", { min: formatNumber(membership.min), max: formatNumber(membership.max), count: membership.count })}</>;
}
