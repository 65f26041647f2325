/**
 * Deterministic layouts computed from the hierarchy alone (no force simulation): the same inventory always draws
 * the same way. Every function is pure; boxes are in view units with the top-left corner first.
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

/** The cluster view: super pods as boxes of small server cells. */
export const CLUSTER_VIEW_GEOMETRY = {
  serverCell: { width: 26, height: 18 },
  serverGap: 5,
  podPadding: 12,
  podHeader: 34,
  podGap: 90,
  /** AI Server mode has no super pods: servers are drawn as labelled boxes. */
  plainServer: { width: 220, height: 72 },
  plainServerGap: 64,
} as const;

export interface ClusterLayout {
  bounds: { width: number; height: number };
  pods: { box: Box; servers: Box[] }[];
}

/** Super pods (each with `podServers[i]` servers) in a serpentine grid, so neighbouring pods sit side by side. */
export function layoutClusterPods(podServers: readonly number[]): ClusterLayout {
  const g = CLUSTER_VIEW_GEOMETRY;
  const most = Math.max(1, ...podServers);
  const serverColumns = gridColumns(most, g.serverCell.width, g.serverCell.height, 1.3);
  const inner = gridSize(most, g.serverCell, g.serverGap, serverColumns);
  const podCell = { width: inner.width + 2 * g.podPadding, height: g.podHeader + inner.height + g.podPadding };
  const podColumns = gridColumns(podServers.length, podCell.width, podCell.height);
  const podBoxes = gridCells(podServers.length, podCell, g.podGap, podColumns, { x: 0, y: 0 }, true);
  return {
    bounds: gridSize(podServers.length, podCell, g.podGap, podColumns),
    pods: podBoxes.map((box, i) => ({
      box,
      servers: gridCells(podServers[i] ?? 0, g.serverCell, g.serverGap, serverColumns, {
        x: box.x + g.podPadding,
        y: box.y + g.podHeader,
      }),
    })),
  };
}

/** `count` equal cells in a serpentine grid near the canvas's shape (neighbours in order stay side by side). */
export function layoutCellGrid(count: number, cell: { width: number; height: number }, gap: number): { bounds: { width: number; height: number }; boxes: Box[] } {
  const columns = gridColumns(count, cell.width, cell.height);
  return { bounds: gridSize(count, cell, gap, columns), boxes: gridCells(count, cell, gap, columns, { x: 0, y: 0 }, true) };
}

/** Servers without super pods (AI Server mode) in a serpentine grid. */
export function layoutPlainServers(count: number): { bounds: { width: number; height: number }; servers: Box[] } {
  const g = CLUSTER_VIEW_GEOMETRY;
  const grid = layoutCellGrid(count, g.plainServer, g.plainServerGap);
  return { bounds: grid.bounds, servers: grid.boxes };
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

export const SUPER_POD_SERVER_GAP = 40;

/** The super pod view: each server drawn small with its NPUs and dies, in a serpentine grid (the HCCS ring). */
export function layoutSuperPod(serverNpuDies: readonly (readonly number[])[]): {
  bounds: { width: number; height: number };
  servers: ServerLayout[];
} {
  const g = SUPER_POD_VIEW_GEOMETRY;
  const cell = { width: 0, height: 0 };
  for (const npuDies of serverNpuDies) {
    const size = serverSize(npuDies, g);
    cell.width = Math.max(cell.width, size.width);
    cell.height = Math.max(cell.height, size.height);
  }
  const columns = gridColumns(serverNpuDies.length, cell.width, cell.height);
  const boxes = gridCells(serverNpuDies.length, cell, SUPER_POD_SERVER_GAP, columns, { x: 0, y: 0 }, true);
  return {
    bounds: gridSize(serverNpuDies.length, cell, SUPER_POD_SERVER_GAP, columns),
    servers: boxes.map((box, i) => layoutServer(serverNpuDies[i] ?? [], g, box, cell)),
  };
}

/** A bus plane's bar: about half a server's height, so that its name fits where the servers' names do. */
export const PLANE_BAR_HEIGHT = 40;
export const PLANE_BAR_GAP = 14;

/**
 * The super pod view of a pod with a bus fabric: the servers' grid, then one bar per bus plane below it, each as wide
 * as the grid (every plane reaches every server: all-to-all).
 */
export function layoutSuperPodWithPlanes(serverNpuDies: readonly (readonly number[])[], planes: number): ReturnType<typeof layoutSuperPod> & { planes: Box[] } {
  const pod = layoutSuperPod(serverNpuDies);
  return { ...pod, ...planesBelow(pod.bounds, planes) };
}

/** `planes` bus plane bars below a grid of `bounds`, each as wide as it, and the bounds of both. */
export function planesBelow(bounds: { width: number; height: number }, planes: number): { bounds: { width: number; height: number }; planes: Box[] } {
  const top = bounds.height + SUPER_POD_SERVER_GAP;
  const boxes = Array.from({ length: planes }, (_, i) => ({ x: 0, y: top + i * (PLANE_BAR_HEIGHT + PLANE_BAR_GAP), width: bounds.width, height: PLANE_BAR_HEIGHT }));
  const height = planes === 0 ? bounds.height : top + planes * PLANE_BAR_HEIGHT + (planes - 1) * PLANE_BAR_GAP;
  return { bounds: { width: bounds.width, height }, planes: boxes };
}

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

/**
 * The cluster view's parameter plane below the super pods: one bar when its shape is unknown (nothing more is
 * claimed), else a leaf tier (one box per super pod, in the pods' order) above a spine bar.
 */
export function layoutParameterPlane(bounds: { width: number; height: number }, pods: number, leafSpine: boolean): { leaves: Box[]; spine: Box; bounds: { width: number; height: number } } {
  const g = CLUSTER_VIEW_GEOMETRY;
  const barHeight = 48;
  let top = bounds.height + g.podGap / 2;
  const leaves: Box[] = [];
  if (leafSpine && pods > 0) {
    const gap = 12;
    const width = (bounds.width - (pods - 1) * gap) / pods;
    for (let i = 0; i < pods; i++) leaves.push({ x: i * (width + gap), y: top, width, height: barHeight });
    top += barHeight + g.podGap / 2;
  }
  const spine = { x: 0, y: top, width: bounds.width, height: barHeight };
  return { leaves, spine, bounds: { width: bounds.width, height: top + barHeight } };
}
