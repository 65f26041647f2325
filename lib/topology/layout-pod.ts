import { gridCells, gridColumns, gridSize, layoutServer, serverSize, SUPER_POD_VIEW_GEOMETRY, type Box, type ServerLayout } from "./layout";

/** Between the servers of the super pod view, and between its servers' grid and its bus plane bars. */
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
