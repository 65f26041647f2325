"use client";

import { Table as AntTable, type TableProps } from "antd";
import type { AnyObject } from "antd/es/_util/type";

/**
 * antd's Table without its scrollbar measurement. On mount rc-table measures the scrollbar of its body in a layout
 * effect (getTargetScrollBarSize: the body's computed style, a probe element appended to the page and its size read),
 * a forced style and layout of the whole page, which has just had the Table's styles inserted: 45–170 ms of a
 * 400–600 ms task when the topology's die table mounted, at load 10–15 (issue 21). The width is only used to pad a
 * fixed header (`scroll.y`, `sticky`), so a table without one skips it: rc-table measures only when `tailor` (its
 * virtual table's flag) is unset, and reads `tailor` nowhere else unless `scroll.x` is a number. Tables with a fixed
 * header keep antd's Table (the editor's grids import it; eslint sends every other table here).
 */
export function Table<Row extends AnyObject>(props: TableProps<Row>) {
  if (props.scroll?.y !== undefined || props.sticky || typeof props.scroll?.x === "number") return <AntTable<Row> {...props} />;
  return <AntTable<Row> {...props} {...noScrollbarProbe} />;
}

/** rc-table's internal flag, passed through antd's Table to rc-table (antd forwards the props it does not read). */
const noScrollbarProbe = { tailor: true } as object;
