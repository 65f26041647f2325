import type { Health, TopologyNode } from "@/lib/topology/model";

/** The die table's columns that sort, and the order they sort in (antd's words). */
export type DieSortKey = "npuIndex" | "deviceId";
export interface DieOrder {
  key: DieSortKey;
  order: "ascend" | "descend";
}
/** As the table first shows its dies: by device id. */
export const FIRST_ORDER: DieOrder = { key: "deviceId", order: "ascend" };

/**
 * The dies as the table lists them: those of the chosen health (all when none is chosen), in the chosen order, ties
 * kept in the view's order. The table sorts and filters here rather than in antd, so the page that holds a die the graph
 * selected is known (pageOfDie).
 */
export function orderDies(dies: readonly TopologyNode[], order: DieOrder, health: readonly Health[] | null): TopologyNode[] {
  const shown = health?.length ? dies.filter((die) => health.includes(die.health)) : [...dies];
  const sign = order.order === "ascend" ? 1 : -1;
  return shown.sort((a, b) => sign * ((a[order.key] ?? 0) - (b[order.key] ?? 0)));
}

/** The page (from 1) of `rows` that holds the die `id`, or null when it is not listed. */
export function pageOfDie(rows: readonly TopologyNode[], id: string, pageSize: number): number | null {
  const index = rows.findIndex((row) => row.id === id);
  return index < 0 ? null : Math.floor(index / pageSize) + 1;
}
