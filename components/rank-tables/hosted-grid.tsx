"use client";

import { DeleteOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useTranslations } from "next-intl";
import { forwardRef, memo, useEffect, useImperativeHandle, useRef, useState } from "react";
import type { GridField } from "@/lib/rank-table-workspace/edit";
import type { DeviceRow } from "@/lib/rank-table-workspace/structure";
import { FieldInput, columnWidth } from "./field-input";
import { useRowSeverity } from "./findings-store";
import type { HostedChannel } from "./use-validation";
import { useRowBlocks } from "./use-hosted-table";

export const ROW_HEIGHT = 32;
/**
 * Rows drawn above and below the visible ones, so a short scroll shows drawn rows; few, since each row mounts its
 * inputs and their tooltips (a screenful took 100-130 ms of main thread after a long scroll; bench: editor-browser).
 */
const OVERSCAN = 4;

export interface HostedGridHandle {
  /** Scrolls to a row (its position among the node's rows) and focuses one of its fields. */
  focus(index: number, rowKey: string | undefined, field?: string): void;
}

interface Props {
  channel: HostedChannel;
  /** The tree's selected node: the grid shows its rows (all rows without one). */
  node: string | undefined;
  /** Rows of the node, as the summary counts them (the worker's answers correct it). */
  rowCount: number;
  revision: number;
  fields: readonly GridField[];
  readOnly: boolean;
  selectedRow: string | undefined;
  onSelectRow: (key: string) => void;
  onChange: (row: DeviceRow, field: GridField, value: string | undefined) => void;
  onRemove: (row: DeviceRow) => void;
  height: number;
}

const RowMark = memo(function RowMark({ row }: { row: DeviceRow }) {
  const severity = useRowSeverity(row.key);
  return (
    <span className={severity ? `rt-row-mark-${severity}` : undefined} style={{ fontFamily: "var(--font-mono)", fontSize: 12, width: 120, flex: "none", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
      {severity === "error" ? "✖ " : severity === "warning" ? "▲ " : ""}
      {row.serverId}
    </span>
  );
});

const GridRow = memo(function GridRow({ row, top, fields, readOnly, selected, onSelectRow, onChange, onRemove }: { row: DeviceRow; top: number; fields: readonly GridField[]; readOnly: boolean; selected: boolean } & Pick<Props, "onSelectRow" | "onChange" | "onRemove">) {
  const t = useTranslations("rankTables.editor");
  return (
    <div role="row" className={selected ? "rt-row-selected" : undefined} onClick={() => onSelectRow(row.key)} style={{ position: "absolute", top, left: 0, right: 0, height: ROW_HEIGHT, display: "flex", alignItems: "center", gap: 8, padding: "0 8px", borderBottom: "1px solid var(--ant-color-border-secondary, #f0f0f0)" }}>
      <RowMark row={row} />
      {fields.map((field) => (
        <span role="gridcell" key={field} style={{ width: columnWidth(field), flex: "none" }}>
          <FieldInput row={row} field={field} readOnly={readOnly} onChange={onChange} width={columnWidth(field) - 8} />
        </span>
      ))}
      {!readOnly && (
        <Button size="small" type="text" aria-label={t("removeDieOf", { server: row.serverId, device: row.values.device_id ?? "" })} icon={<DeleteOutlined />} onClick={() => onRemove(row)} />
      )}
    </div>
  );
});

/**
 * The dies of a table the worker keeps, virtualised by hand: only the rows in view (and a few around) exist, and
 * they are fetched from the worker by range as the grid scrolls. A row not fetched yet shows as a blank line.
 */
export const HostedGrid = memo(
  forwardRef<HostedGridHandle, Props>(function HostedGrid({ channel, node, rowCount, revision, fields, readOnly, selectedRow, onSelectRow, onChange, onRemove, height }, ref) {
    const t = useTranslations("rankTables.editor");
    const scroller = useRef<HTMLDivElement>(null);
    const [scrollTop, setScrollTop] = useState(0);
    const { want, rowAt, total } = useRowBlocks(channel, node, revision);
    const count = total() ?? rowCount;
    const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

    useEffect(() => want(first, Math.max(last, first + 1)), [want, first, last]);
    // Another node's rows start at the top. Not on mount: the grid is there already, and scrolling forced a layout
    // of the page just committed, 20 ms of the task that shows a 524,288-rank table's first rows (issue 21).
    const shownNode = useRef(node);
    useEffect(() => {
      if (shownNode.current === node) return;
      shownNode.current = node;
      scroller.current?.scrollTo({ top: 0 });
      setScrollTop(0);
    }, [node]);

    useImperativeHandle(
      ref,
      () => ({
        focus(index, rowKey, field) {
          const element = scroller.current;
          if (!element || index < 0) return;
          const top = Math.max(0, index * ROW_HEIGHT - height / 3);
          element.scrollTo({ top });
          setScrollTop(top);
          let tries = 0;
          const attempt = () => {
            const selector = rowKey === undefined ? "[data-cell]" : field ? `[data-cell="${rowKey}:${field}"]` : `[data-cell^="${rowKey}:"]`;
            const input = element.querySelector<HTMLInputElement>(selector);
            if (input) {
              input.focus();
              input.select();
            } else if (tries++ < 60) requestAnimationFrame(attempt);
          };
          requestAnimationFrame(attempt);
        },
      }),
      [height],
    );

    const rows: React.ReactNode[] = [];
    for (let index = first; index < last; index++) {
      const row = rowAt(index);
      if (row) rows.push(<GridRow key={row.key} row={row} top={index * ROW_HEIGHT} fields={fields} readOnly={readOnly} selected={row.key === selectedRow} onSelectRow={onSelectRow} onChange={onChange} onRemove={onRemove} />);
    }
    const width = 140 + fields.reduce((sum, field) => sum + columnWidth(field) + 8, 0) + (readOnly ? 0 : 40);

    return (
      <div role="grid" aria-label={t("gridLabel")} aria-rowcount={count} style={{ border: "1px solid var(--ant-color-border-secondary, #f0f0f0)", borderRadius: 6 }}>
        <div role="row" style={{ display: "flex", gap: 8, padding: "6px 8px", fontWeight: 600, fontSize: 12, borderBottom: "1px solid var(--ant-color-border-secondary, #f0f0f0)", minWidth: width }}>
          <span role="columnheader" style={{ width: 120, flex: "none" }}>{t("server")}</span>
          {fields.map((field) => (
            <span role="columnheader" key={field} style={{ width: columnWidth(field), flex: "none" }}>{field}</span>
          ))}
        </div>
        <div ref={scroller} onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)} style={{ height, overflow: "auto", position: "relative" }}>
          <div style={{ height: Math.max(count * ROW_HEIGHT, 1), position: "relative", minWidth: width }}>{count === 0 ? <div style={{ padding: 16 }}>{t("noDies")}</div> : rows}</div>
        </div>
      </div>
    );
  }),
);
