import { parseHccnConf, type HccnServer } from "@/lib/rank-table";

/** A server's hccn.conf as the import collects it: `order` is when its file was chosen, so reads that finish out of order still rank the servers in the order the files were given. */
export interface HccnFile extends HccnServer {
  order: number;
}

/** The server id a file stands for: its name without `.conf` or `.hccn.conf` (`node-1.hccn.conf` → `node-1`). */
export function hccnServerId(fileName: string): string {
  return fileName.replace(/(\.hccn)?\.conf$/i, "");
}

/** A file with no `address_N` line would give a server without dies, so the import refuses it. */
export function hasHccnAddresses(content: string): boolean {
  return parseHccnConf(content).size > 0;
}

/** Adds a server's file to those collected, replacing an earlier file of the same server in its place. */
export function addHccnFile(files: readonly HccnFile[], fileName: string, content: string, order: number): HccnFile[] {
  const serverId = hccnServerId(fileName);
  const earlier = files.find((file) => file.serverId === serverId);
  const added = { serverId, hccnConf: content, order: earlier?.order ?? order };
  return [...files.filter((file) => file !== earlier), added].sort((a, b) => a.order - b.order);
}
