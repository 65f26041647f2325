"use client";

import { CloseCircleOutlined } from "@ant-design/icons";
import { Button, Checkbox, Drawer, Input, Select, Space, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { jobsOf, mapCells, portBands, rowHasConflict, type MapHolder } from "@/lib/ports/map";
import { formatRange } from "@/lib/ports/ranges";
import type { PortHostRow } from "@/lib/ports/report";
import type { PortsSearchParams } from "@/lib/ports/url";
import { BindingsTable } from "./bindings-table";

const PAGE_SIZE = 50;

type MapState = Pick<PortsSearchParams, "job" | "host" | "q" | "conflicts" | "page">;

/** One job's hold on a band: red with a cross when it conflicts there, outlined when it is the selected job. */
function HolderTag({ holder, selected, onSelect }: { holder: MapHolder; selected: boolean; onSelect: () => void }) {
  const t = useTranslations("ports");
  const uses = holder.uses.map((u) => `${u.source} ${formatRange(u.ports)} (${t(`planes.${u.plane}`)})`).join("; ");
  const label = `${holder.jobName}: ${uses}${holder.conflict ? ` — ${t("conflict")}` : ""}`;
  return (
    <Tag
      color={holder.conflict ? "error" : selected ? "processing" : "default"}
      icon={holder.conflict ? <CloseCircleOutlined /> : undefined}
      title={label}
      aria-label={label}
      data-conflict={holder.conflict || undefined}
      style={{ cursor: "pointer", fontWeight: selected ? 600 : undefined, marginBlock: 2 }}
      onClick={onSelect}
    >
      {holder.jobName}
    </Tag>
  );
}

/**
 * The host × port-range map: a row per host that binds anything (filtered by name, by job, or to conflicts; paged,
 * so 1,024 hosts render 50 at a time), a column per port band jobs bind, each cell the jobs holding it. A host opens
 * a drawer with every binding on it.
 */
export function PortMap({ hosts, state, onState }: { hosts: readonly PortHostRow[]; state: MapState; onState: (patch: Partial<MapState>) => void }) {
  const t = useTranslations("ports");
  const busy = useMemo(() => hosts.filter((h) => h.bindings.length > 0), [hosts]);
  const jobs = useMemo(() => jobsOf(busy), [busy]);
  const rows = useMemo(() => {
    const q = state.q?.trim().toLowerCase();
    return busy.filter(
      (h) =>
        (!q || h.serverId.toLowerCase().includes(q)) &&
        (state.job === undefined || h.bindings.some((b) => b.jobId === state.job)) &&
        (state.conflicts !== "1" || rowHasConflict(h)),
    );
  }, [busy, state.q, state.job, state.conflicts]);
  const bands = useMemo(() => portBands(rows), [rows]);
  const conflicted = useMemo(() => busy.filter(rowHasConflict).length, [busy]);
  const open = state.host === undefined ? undefined : hosts.find((h) => h.serverId === state.host);

  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <Space wrap>
        <Input.Search
          aria-label={t("hostSearch")}
          placeholder={t("hostSearch")}
          allowClear
          size="small"
          style={{ width: 220 }}
          defaultValue={state.q}
          onSearch={(q) => onState({ q: q || undefined, page: undefined })}
        />
        <Select<number | "">
          aria-label={t("jobFilter")}
          size="small"
          style={{ minWidth: 220 }}
          showSearch={{ optionFilterProp: "label" }}
          value={state.job ?? ""}
          onChange={(job) => onState({ job: job === "" ? undefined : job, page: undefined })}
          options={[{ value: "", label: t("allJobs") }, ...jobs.map(([id, name]) => ({ value: id, label: name }))]}
        />
        <Checkbox checked={state.conflicts === "1"} onChange={(e) => onState({ conflicts: e.target.checked ? "1" : undefined, page: undefined })}>
          {t("onlyConflicts")}
        </Checkbox>
        <Typography.Text type="secondary" data-testid="map-count">
          {t("mapCount", { shown: rows.length, busy: busy.length, total: hosts.length, conflicted })}
        </Typography.Text>
      </Space>
      <Space size={4} wrap>
        <Typography.Text type="secondary">{t("legend")}</Typography.Text>
        <Tag color="error" icon={<CloseCircleOutlined />}>
          {t("legendConflict")}
        </Tag>
        <Tag>{t("legendHeld")}</Tag>
        <Tag color="processing">{t("legendSelected")}</Tag>
      </Space>
      <div role="region" aria-label={t("map")}>
        <Table<PortHostRow>
          size="small"
          rowKey="serverId"
          dataSource={rows}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("mapEmpty") }}
          pagination={{
            pageSize: PAGE_SIZE,
            current: Math.min(state.page ?? 1, Math.max(1, Math.ceil(rows.length / PAGE_SIZE))),
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (total) => t("hostsTotal", { total }),
            onChange: (page) => onState({ page: page === 1 ? undefined : page }),
          }}
          columns={[
            {
              title: t("columns.host"),
              dataIndex: "serverId",
              fixed: "left",
              render: (serverId: string, row) => (
                <Button
                  type="link"
                  size="small"
                  style={{ paddingInline: 0 }}
                  danger={rowHasConflict(row)}
                  icon={rowHasConflict(row) ? <CloseCircleOutlined aria-label={t("conflict")} /> : undefined}
                  onClick={() => onState({ host: serverId })}
                >
                  {serverId}
                </Button>
              ),
            },
            ...bands.map((band, i) => ({
              title: formatRange(band),
              key: `band-${i}`,
              render: (_: unknown, row: PortHostRow) => (
                <BandCell holders={mapCells(row, [band])[0]!} selected={state.job} onSelect={(job) => onState({ job, page: undefined })} />
              ),
            })),
          ]}
        />
      </div>
      <Drawer open={open !== undefined} onClose={() => onState({ host: undefined })} title={t("hostTitle", { host: state.host ?? "" })} size="large">
        {open && <BindingsTable bindings={open.bindings} label={t("bindingsOf", { host: open.serverId })} />}
      </Drawer>
    </Space>
  );
}

function BandCell({ holders, selected, onSelect }: { holders: MapHolder[]; selected: number | undefined; onSelect: (job: number) => void }) {
  if (holders.length === 0) return <span aria-hidden>·</span>;
  return (
    <span>
      {holders.map((h) => (
        <HolderTag key={h.jobId} holder={h} selected={h.jobId === selected} onSelect={() => onSelect(h.jobId)} />
      ))}
    </span>
  );
}
