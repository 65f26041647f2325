/**
 * Deterministic layouts computed from the hierarchy alone (no force simulation): the same inventory always draws
 * the same way. Every function is pure; boxes are in view units with the top-left corner first. Here the grids, a
 * server drawn with its NPUs and dies, and the aggregate cells; each view's own arrangement is in layout-cluster.ts,
 * layout-pod.ts and layout-server.ts.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How wide the views aim to be relative to their height: a typical console canvas is about 16:9. */
export const TARGET_ASPECT = 1.8;

/**
 * Columns for `count` cells of `cellWidth` × `cellHeight` so that the grid's aspect ratio comes close to `aspect`.
 */
export function gridColumns(count: number, cellWidth: number, cellHeight: number, aspect = TARGET_ASPECT): number {
  if (count <= 1) return 1;
  return Math.max(1, Math.min(count, Math.ceil(Math.sqrt((count * aspect * cellHeight) / cellWidth))));
}

/**
 * `count` equal cells in rows of `columns`. With `serpentine`, odd rows run right to left, so that consecutive
 * cells (a ring of servers, neighbouring super pods) are always side by side or one above the other.
 */
export function gridCells(
  count: number,
  cell: { width: number; height: number },
  gap: number,
  columns: number,
  origin: { x: number; y: number } = { x: 0, y: 0 },
  serpentine = false,
): Box[] {
  const boxes: Box[] = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / columns);
    const inRow = i % columns;
    const col = serpentine && row % 2 === 1 ? columns - 1 - inRow : inRow;
    boxes.push({ x: origin.x + col * (cell.width + gap), y: origin.y + row * (cell.height + gap), width: cell.width, height: cell.height });
  }
  return boxes;
}

export function gridSize(count: number, cell: { width: number; height: number }, gap: number, columns: number) {
  const rows = Math.max(1, Math.ceil(count / columns));
  const cols = Math.min(columns, Math.max(1, count));
  return { width: cols * cell.width + (cols - 1) * gap, height: rows * cell.height + (rows - 1) * gap };
}

/** Sizes of a server drawn with its NPUs and dies: full size in the server view, small in the super pod view. */
export interface ServerGeometry {
  dieWidth: number;
  dieHeight: number;
  /** Space between the two dies of one NPU, where the backup-rail link is drawn. */
  dieGap: number;
  npuPadding: number;
  npuHeader: number;
  npuGap: number;
  npuColumns: number;
  serverPadding: number;
  serverHeader: number;
}

export const SERVER_VIEW_GEOMETRY: ServerGeometry = {
  dieWidth: 150,
  dieHeight: 78,
  dieGap: 64,
  npuPadding: 12,
  npuHeader: 28,
  npuGap: 28,
  /** Two columns (NPU 0 beside 1, 2 beside 3, …) keep the server near the canvas's shape, so dies stay legible. */
  npuColumns: 2,
  serverPadding: 20,
  serverHeader: 44,
};

export const SUPER_POD_VIEW_GEOMETRY: ServerGeometry = {
  dieWidth: 20,
  dieHeight: 14,
  dieGap: 8,
  npuPadding: 3,
  npuHeader: 0,
  npuGap: 5,
  npuColumns: 4,
  serverPadding: 7,
  serverHeader: 24,
};

export interface ServerLayout {
  box: Box;
  npus: { box: Box; dies: Box[] }[];
}

/** The size of a server with `npuDies[i]` dies on its i-th NPU. */
export function serverSize(npuDies: readonly number[], g: ServerGeometry): { width: number; height: number } {
  const layout = layoutServer(npuDies, g, { x: 0, y: 0 });
  return { width: layout.box.width, height: layout.box.height };
}

/**
 * A server at `origin`: its NPUs in rows of `npuColumns` (NPU 0–3 above 4–7 on an 8-NPU server), each NPU's dies
 * side by side with `dieGap` between them. `minSize` widens the server box to a common cell size.
 */
export function layoutServer(
  npuDies: readonly number[],
  g: ServerGeometry,
  origin: { x: number; y: number },
  minSize?: { width: number; height: number },
): ServerLayout {
  const maxDies = Math.max(1, ...npuDies);
  const npuCell = {
    width: 2 * g.npuPadding + maxDies * g.dieWidth + (maxDies - 1) * g.dieGap,
    height: g.npuHeader + g.npuPadding * 2 + g.dieHeight,
  };
  const columns = Math.max(1, Math.min(g.npuColumns, npuDies.length));
  const inner = npuDies.length === 0 ? { width: npuCell.width, height: 0 } : gridSize(npuDies.length, npuCell, g.npuGap, columns);
  const width = Math.max(minSize?.width ?? 0, inner.width + 2 * g.serverPadding);
  const height = Math.max(minSize?.height ?? 0, g.serverHeader + inner.height + g.serverPadding);
  const npuOrigin = { x: origin.x + (width - inner.width) / 2, y: origin.y + g.serverHeader };
  const cells = gridCells(npuDies.length, npuCell, g.npuGap, columns, npuOrigin);
  return {
    box: { x: origin.x, y: origin.y, width, height },
    npus: cells.map((cell, i) => {
      const dies = npuDies[i] ?? 0;
      const diesWidth = dies * g.dieWidth + Math.max(0, dies - 1) * g.dieGap;
      const left = cell.x + (cell.width - diesWidth) / 2;
      return {
        box: cell,
        dies: Array.from({ length: dies }, (_, d) => ({
          x: left + d * (g.dieWidth + g.dieGap),
          y: cell.y + g.npuHeader + g.npuPadding,
          width: g.dieWidth,
          height: g.dieHeight,
        })),
      };
    }),
  };
}

/** `count` equal cells in a serpentine grid near the canvas's shape (neighbours in order stay side by side). */
export function layoutCellGrid(count: number, cell: { width: number; height: number }, gap: number): { bounds: { width: number; height: number }; boxes: Box[] } {
  const columns = gridColumns(count, cell.width, cell.height);
  return { bounds: gridSize(count, cell, gap, columns), boxes: gridCells(count, cell, gap, columns, { x: 0, y: 0 }, true) };
}

/**
 * Cells that stand for what they hold (too many to draw one by one): a super pod in the cluster view, a server in
 * the super pod view, each with its name, counts and health distribution (drawn as a bar).
 */
export const AGGREGATE_GEOMETRY = {
  pod: { width: 240, height: 120 },
  podGap: 70,
  server: { width: 170, height: 70 },
  serverGap: 30,
} as const;

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function contains(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}
