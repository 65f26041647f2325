"use client";

import { AimOutlined, ClearOutlined } from "@ant-design/icons";
import { Alert, Button, Space, Tag, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import type { NodeDetails, NodeKind, PlanePorts, SwitchImpact } from "@/lib/topology/model";

/* The fabric's parts of the details panel: a die's plane ports, a switch's blast radius, a plane's switches. */

type Provenance = PlanePorts["bus"][number]["provenance"];
/** Documented numbers read plainly; what rests on an assumption is flagged in amber, an unknown in grey. */
const provenanceColor: Record<Provenance, string | undefined> = { official: "green", published: "blue", derived: "cyan", assumed: "gold", unknown: undefined };

export function ProvenanceTag({ provenance, basis }: { provenance: Provenance; basis?: readonly string[] }) {
  const t = useTranslations("topology.details.provenance");
  return (
    <Tag color={provenanceColor[provenance]} title={basis?.join("; ")} data-provenance={provenance}>
      {t(provenance)}
    </Tag>
  );
}

interface SelectProps {
  onSelect: (kind: NodeKind, id: string) => void;
  selectionHref: (kind: NodeKind, id: string) => string;
}

function NodeLink({ kind, id, children, onSelect, selectionHref }: SelectProps & { kind: NodeKind; id: string; children: React.ReactNode }) {
  return (
    <Typography.Link
      href={selectionHref(kind, id)}
      onClick={(event) => {
        event.preventDefault();
        onSelect(kind, id);
      }}
    >
      {children}
    </Typography.Link>
  );
}

/** Which plane ports the die's (or NPU's) traffic uses: a bus port per plane through its node chip, its RoCE port. */
export function PlanePortsSection({ ports, highlighted, onHighlight, ...select }: SelectProps & { ports: PlanePorts; highlighted: boolean; onHighlight: (on: boolean) => void }) {
  const t = useTranslations("topology.details");
  const shape = (value: string | null) => value ?? t("shapeUnknown");
  const parameter = ports.parameter;
  return (
    <section aria-label={t("planePorts")} data-testid="plane-ports">
      <Typography.Title level={3} style={{ fontSize: 14 }}>
        {t("planePorts")}
      </Typography.Title>
      <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {ports.bus.map((port) => (
          <li key={port.planeKey} style={{ padding: "2px 0" }}>
            <Space size={4} wrap>
              <span>
                {t.rich("busPort", {
                  plane: port.planeIndex,
                  chip: port.chipId,
                  planeLink: (chunks) => (
                    <NodeLink kind="plane" id={port.planeKey} {...select}>
                      {chunks}
                    </NodeLink>
                  ),
                  chipLink: (chunks) => (
                    <NodeLink kind="switch" id={port.chipKey} {...select}>
                      {chunks}
                    </NodeLink>
                  ),
                  links:
                    port.dieLinks !== null && port.npuLinks !== null
                      ? t("busLinks", { dieLinks: port.dieLinks, npuLinks: port.npuLinks, gbps: port.linkGbps ?? "?" })
                      : t("busLinksUnknown"),
                })}
              </span>
              <ProvenanceTag provenance={port.provenance} basis={port.basis} />
            </Space>
          </li>
        ))}
        {parameter && (
          <li style={{ padding: "2px 0" }} data-testid="roce-port">
            <Space size={4} wrap>
              <span>
                {parameter.portIndex !== null
                  ? t("roCEPort", { port: parameter.portIndex, gbps: parameter.portGbps ?? "?", shared: parameter.sharedBy ?? 1, shape: shape(parameter.shape) })
                  : t("roCEPortLoose", { gbps: parameter.portGbps ?? "?", shape: shape(parameter.shape) })}
              </span>
              <ProvenanceTag provenance={parameter.provenance} basis={parameter.basis} />
            </Space>
          </li>
        )}
      </ul>
      {ports.gaps.length > 0 && <Typography.Text type="secondary">{t("portsGaps", { gaps: ports.gaps.join("; ") })}</Typography.Text>}
      {(ports.bus.length > 0 || parameter) && (
        <Button size="small" style={{ marginTop: 6 }} icon={highlighted ? <ClearOutlined /> : <AimOutlined />} onClick={() => onHighlight(!highlighted)}>
          {highlighted ? t("clearHighlight") : t("showPorts")}
        </Button>
      )}
    </section>
  );
}

const listedServers = 12;

/** What a switch failure takes down: the servers cut from its plane, those degraded, the jobs on them; highlightable. */
export function SwitchImpactSection({ impact, node, highlighted, onHighlight, ...select }: SelectProps & { impact: SwitchImpact; node: NodeDetails["node"]; highlighted: boolean; onHighlight: (on: boolean) => void }) {
  const t = useTranslations("topology.details");
  const format = useFormatter();
  const cut = impact.servers.filter((s) => s.effect === "cut");
  const degraded = impact.servers.filter((s) => s.effect === "degraded");
  const plane = node.switchKind === "node-chip" ? (node.switchIndex ?? 0) : (node.planeIndex ?? 0);
  const share = (value: number | null) => (value === null ? "?" : format.number(value, { style: "percent", maximumFractionDigits: 1 }));
  return (
    <section aria-label={t("impactTitle")} data-testid="switch-impact">
      <Typography.Title level={3} style={{ fontSize: 14 }}>
        {t("impactTitle")}
      </Typography.Title>
      <Space orientation="vertical" size={6} style={{ width: "100%" }}>
        {cut.length > 0 && (
          <Alert type="error" showIcon title={t("impactCut", { servers: cut.length, plane, dies: impact.cutDies, share: share(cut[0]!.busShareLost) })} />
        )}
        <Alert
          type="warning"
          showIcon
          title={t("impactDegraded", { servers: degraded.length, pod: node.superPodId ?? "", plane, dies: impact.degradedDies })}
          description={degraded[0]?.busShareLost ? t("impactShare", { share: share(degraded[0].busShareLost) }) : undefined}
        />
        {node.switchKind === "node-chip" && <Typography.Text type="secondary">{t("attachmentOnly")}</Typography.Text>}
        <div>
          <Typography.Text strong>{t("impactServers")}: </Typography.Text>
          <span data-testid="impact-servers">
            {impact.servers.slice(0, listedServers).map((server, i) => (
              <span key={server.serverId}>
                {i > 0 && ", "}
                <NodeLink kind="server" id={server.serverId} {...select}>
                  {server.serverId}
                </NodeLink>
                {server.effect === "cut" && <Tag color="red" style={{ marginInlineStart: 4 }}>{t("cutTag")}</Tag>}
              </span>
            ))}
            {impact.servers.length > listedServers && <span> {t("moreServers", { count: impact.servers.length - listedServers })}</span>}
          </span>
        </div>
        <div data-testid="impact-jobs">
          <Typography.Text strong>{t("impactJobs")}: </Typography.Text>
          {impact.jobs.length === 0 ? (
            <Typography.Text type="secondary">{t("impactNoJobs")}</Typography.Text>
          ) : (
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {impact.jobs.map((job) => (
                <li key={job.id}>
                  <Link href={`/jobs/${job.id}`}>{job.namespace === "default" ? job.name : `${job.namespace}/${job.name}`}</Link>{" "}
                  <Tag color={job.effect === "cut" ? "red" : "gold"}>{t("jobRanks", { effect: job.effect, ranks: job.ranks })}</Tag>
                </li>
              ))}
            </ul>
          )}
        </div>
        <Button size="small" type={highlighted ? "default" : "primary"} icon={highlighted ? <ClearOutlined /> : <AimOutlined />} onClick={() => onHighlight(!highlighted)}>
          {highlighted ? t("clearHighlight") : t("highlightImpact")}
        </Button>
      </Space>
    </section>
  );
}

/** A bus plane's switches, each selectable for what its failure takes down. */
export function PlaneSwitches({ node, ...select }: SelectProps & { node: NodeDetails["node"] }) {
  const t = useTranslations("topology");
  const count = node.switches ?? 0;
  if (count === 0) return null;
  return (
    <section aria-label={t("details.busSwitches")}>
      <Typography.Title level={3} style={{ fontSize: 14 }}>
        {t("details.busSwitches")}
      </Typography.Title>
      <Space size={[8, 4]} wrap>
        {Array.from({ length: count }, (_, i) => (
          <NodeLink key={i} kind="switch" id={`${node.id}/sw:${i}`} {...select}>
            {t("labels.busSwitch", { plane: node.planeIndex ?? 0, index: i })}
          </NodeLink>
        ))}
      </Space>
    </section>
  );
}

/** The parameter plane: its shape, or a plain "unknown" with why nothing more is drawn. */
export function ParameterPlaneNote({ node }: { node: NodeDetails["node"] }) {
  const t = useTranslations("topology.details");
  return <Alert type="info" showIcon data-testid="parameter-shape" title={node.shape ? t("shapeKnown") : t("shapeNote")} />;
}
