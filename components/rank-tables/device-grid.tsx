"use client";

import { DeleteOutlined } from "@ant-design/icons";
import { Button, Table, Tooltip } from "antd";
import { useTranslations } from "next-intl";
import { forwardRef, memo, useCallback, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { GridField } from "@/lib/rank-table-workspace/edit";
import { gridSlots, slotRow, type DeviceRow, type GridSlot } from "@/lib/rank-table-workspace/structure";
import { FieldInput, columnWidth } from "./field-input";
import { createStore, useRowSeverity, useStorePart, type Store } from "./findings-store";

export interface DeviceGridHandle {
  /** Scrolls to a die and focuses one of its fields. */
  focus(rowKey: string, field?: string): void;
}

interface Props {
  rows: DeviceRow[];
  /** The editable columns: the device fields of a 1.x table, a rank's fields of a "2.0" one. */
  fields: readonly GridField[];
  readOnly: boolean;
  selectedRow: string | undefined;
  onSelectRow: (key: string) => void;
  onChange: (row: DeviceRow, field: GridField, value: string | undefined) => void;
  onRemove: (row: DeviceRow) => void;
  height: number;
}

type RowsStore = Store<readonly DeviceRow[]>;

const useSlotRow = (rows: RowsStore, slot: GridSlot) => useStorePart(rows, useCallback((current: readonly DeviceRow[]) => slotRow(current, slot), [slot]));

/**
 * One editable field: commits on Enter or leaving the field, Escape puts the saved value back. It reads its own row
 * and findings, so an edit or a report re-renders only the cells it concerns, never the whole table.
 */
const Cell = memo(function Cell({ slot, rows, field, readOnly, onChange }: { slot: GridSlot; rows: RowsStore; field: GridField; readOnly: boolean; onChange: Props["onChange"] }) {
  return <FieldInput row={useSlotRow(rows, slot)} field={field} readOnly={readOnly} onChange={onChange} />;
});

/** The server column: the die's server, with ✖/▲ (and a class the row's left edge is coloured by) for its worst finding. */
const RowMark = memo(function RowMark({ slot, rows }: { slot: GridSlot; rows: RowsStore }) {
  const row = useSlotRow(rows, slot);
  const severity = useRowSeverity(row.key);
  return (
    <span className={severity ? `rt-row-mark-${severity}` : undefined} style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}>
      {severity === "error" ? "✖ " : severity === "warning" ? "▲ " : ""}
      {row.serverId}
    </span>
  );
});

const RemoveDie = memo(function RemoveDie({ slot, rows, onRemove }: { slot: GridSlot; rows: RowsStore; onRemove: Props["onRemove"] }) {
  const t = useTranslations("rankTables.editor");
  const row = useSlotRow(rows, slot);
  return (
    <Tooltip title={t("removeDie")}>
      <Button size="small" type="text" aria-label={t("removeDieOf", { server: row.serverId, device: row.values.device_id ?? "" })} icon={<DeleteOutlined />} onClick={() => onRemove(row)} />
    </Tooltip>
  );
});


/**
 * The dies of the table (or of the selected super pod or server), virtualised. The table itself gets slots that stay
 * the same while no die is added, removed or moved, so a field edit does not re-render it (a 16,384-row antd table
 * re-keys and re-measures all of its rows when its data changes); the cells read the current rows from a store.
 */
export const DeviceGrid = memo(
  forwardRef<DeviceGridHandle, Props>(function DeviceGrid({ rows, fields, readOnly, selectedRow, onSelectRow, onChange, onRemove, height }, ref) {
    const t = useTranslations("rankTables.editor");
    const tableRef = useRef<{ scrollTo: (config: { index?: number; key?: string }) => void; nativeElement: HTMLDivElement } | null>(null);
    const [rowsStore] = useState(() => createStore<readonly DeviceRow[]>(rows));
    const [slots, setSlots] = useState(() => gridSlots(rows));
    const nextSlots = gridSlots(rows, slots);
    if (nextSlots !== slots) setSlots(nextSlots);
    useLayoutEffect(() => rowsStore.set(rows), [rowsStore, rows]);

    useImperativeHandle(
      ref,
      () => ({
        focus(rowKey, field) {
          const index = rows.findIndex((row) => row.key === rowKey);
          if (index < 0) return;
          tableRef.current?.scrollTo({ index });
          let tries = 0;
          const attempt = () => {
            const selector = field ? `[data-cell="${rowKey}:${field}"]` : `[data-cell^="${rowKey}:"]`;
            const element = tableRef.current?.nativeElement.querySelector<HTMLInputElement>(selector);
            if (element) {
              element.focus();
              element.select();
            } else if (tries++ < 10) requestAnimationFrame(attempt);
          };
          requestAnimationFrame(attempt);
        },
      }),
      [rows],
    );

    const columns = useMemo(
      () => [
        {
          title: t("server"),
          key: "serverId",
          width: 120,
          fixed: "left" as const,
          render: (_: unknown, slot: GridSlot) => <RowMark slot={slot} rows={rowsStore} />,
        },
        ...fields.map((field) => ({
          title: field,
          key: field,
          width: columnWidth(field),
          render: (_: unknown, slot: GridSlot) => <Cell slot={slot} rows={rowsStore} field={field} readOnly={readOnly} onChange={onChange} />,
        })),
        ...(readOnly ? [] : [{ title: "", key: "actions", width: 44, render: (_: unknown, slot: GridSlot) => <RemoveDie slot={slot} rows={rowsStore} onRemove={onRemove} /> }]),
      ],
      [fields, readOnly, onChange, onRemove, t, rowsStore],
    );
    const rowClassName = useCallback((slot: GridSlot) => (slot.key === selectedRow ? "rt-row-selected" : ""), [selectedRow]);
    const onRow = useCallback((slot: GridSlot) => ({ onClick: () => onSelectRow(slot.key) }), [onSelectRow]);

    // The same element while nothing it is made of changed: React then leaves the whole table alone.
    return useMemo(
      () => (
        <Table<GridSlot>
          ref={tableRef as never}
          aria-label={t("gridLabel")}
          size="small"
          virtual
          bordered
          scroll={{ x: 1150, y: height }}
          pagination={false}
          rowKey="key"
          dataSource={slots}
          columns={columns}
          locale={{ emptyText: t("noDies") }}
          rowClassName={rowClassName}
          onRow={onRow}
        />
      ),
      [slots, columns, rowClassName, onRow, height, t],
    );
  }),
);
