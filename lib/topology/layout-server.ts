import { layoutServer, SERVER_VIEW_GEOMETRY, type Box, type ServerLayout } from "./layout";

/** The server view's fabric rows: node chips, then the bus plane each chip uplinks to, then the parameter plane. */
export const FABRIC_ROW = { gap: 48, chipHeight: 56, planeHeight: 44, columnGap: 12, parameterHeight: 44 } as const;

/**
 * A server with its fabric below it (server view): one column per node chip k holding the chip and, under it, the
 * bus plane k it uplinks to (chip k → plane k); then the parameter plane as one bar as wide as the server.
 */
export function layoutServerWithFabric(
  npuDies: readonly number[],
  columns: number,
  parameter: boolean,
): ServerLayout & { chips: Box[]; planes: Box[]; parameter: Box | null; bounds: { width: number; height: number } } {
  const server = layoutServer(npuDies, SERVER_VIEW_GEOMETRY, { x: 0, y: 0 });
  const width = server.box.width;
  const g = FABRIC_ROW;
  let y = server.box.height;
  const columnWidth = columns > 0 ? (width - (columns - 1) * g.columnGap) / columns : 0;
  const column = (i: number, top: number, height: number): Box => ({ x: i * (columnWidth + g.columnGap), y: top, width: columnWidth, height });
  const chips: Box[] = [];
  const planes: Box[] = [];
  if (columns > 0) {
    const chipTop = y + g.gap;
    const planeTop = chipTop + g.chipHeight + g.gap;
    for (let i = 0; i < columns; i++) {
      chips.push(column(i, chipTop, g.chipHeight));
      planes.push(column(i, planeTop, g.planeHeight));
    }
    y = planeTop + g.planeHeight;
  }
  const parameterBox = parameter ? { x: 0, y: y + g.gap, width, height: g.parameterHeight } : null;
  if (parameterBox) y = parameterBox.y + parameterBox.height;
  return { ...server, chips, planes, parameter: parameterBox, bounds: { width, height: y } };
}
