/**
 * The structure tree's node keys and what a selected node stands for: the server or super pod that the editor's
 * actions apply to, and the grid rows it shows. Indices are those of `server_list` and `super_pod_list`.
 */
import type { DeviceRow, TableStructure } from "./structure";

export const podNodeKey = (pod: number) => `pod:${pod}`;
export const serverNodeKey = (server: number) => `server:${server}`;
/** A die's node: its grid row's key (`<server>/<device>`). */
export const dieNodeKey = (rowKey: string) => `die:${rowKey}`;

/** The server a server's or die's node selects. */
export function selectedServerOf(node: string | undefined): number | undefined {
  if (node?.startsWith("server:")) return Number(node.slice(7));
  if (node?.startsWith("die:")) return Number(node.slice(4).split("/")[0]);
  return undefined;
}

/** The super pod a super pod's node selects. */
export function selectedPodOf(node: string | undefined): number | undefined {
  return node?.startsWith("pod:") ? Number(node.slice(4)) : undefined;
}

/** The rows the grid shows for a selected node: a server's (for it or one of its dies) or a super pod's; all when none is selected or it is gone. */
export function rowsOfNode(structure: TableStructure, node: string | undefined): DeviceRow[] {
  if (!node) return structure.rows;
  const rowsOf = (server: { firstRow: number; rowCount: number }) => structure.rows.slice(server.firstRow, server.firstRow + server.rowCount);
  const serverIndex = selectedServerOf(node);
  if (serverIndex !== undefined) {
    const server = structure.servers.find((entry) => entry.index === serverIndex);
    return server ? rowsOf(server) : structure.rows;
  }
  const pod = structure.pods.find((entry) => entry.index === Number(node.split(":")[1]));
  return pod ? pod.servers.flatMap(rowsOf) : structure.rows;
}
