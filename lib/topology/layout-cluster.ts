import { gridCells, gridColumns, gridSize, layoutCellGrid, type Box } from "./layout";

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

/** Servers without super pods (AI Server mode) in a serpentine grid. */
export function layoutPlainServers(count: number): { bounds: { width: number; height: number }; servers: Box[] } {
  const g = CLUSTER_VIEW_GEOMETRY;
  const grid = layoutCellGrid(count, g.plainServer, g.plainServerGap);
  return { bounds: grid.bounds, servers: grid.boxes };
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
