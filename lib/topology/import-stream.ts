/**
 * Inventory from a "1.0"/"1.2" rank table read as it streams, a batch of servers at a time, instead of as one value:
 * a 524,288-NPU A3 table (1,048,576 dies, 210 MiB) parsed whole was 4.3 GB of objects before its first row was
 * written (issue 21 item 1). Two passes over the text, each parsing it piece by piece (lib/rank-table/stream-parse.ts)
 * and handing server_list's entries on one at a time:
 * 1. the check: each entry becomes its validator view (lib/rank-table/table-view.ts StreamedServers) and is dropped;
 *    the rest of the table (header, super_pod_list) is parsed at the end and the same checks run over the same view
 *    (validateStreamedTable), so the findings are the whole-table validation's, positions included;
 * 2. the rows: each entry becomes its server (lib/topology/import.ts serverOf, as the whole-table import reads it),
 *    batches of servers go to the writer as they come, and the links, which need every server, come last in
 *    batches from each server's die ids only.
 * Memory follows the validator's view (one small object per die) and one batch, not the table's objects. Tables this
 * does not read (comments, syntax errors, "2.0", legacy or look-alike layouts, a second server_list) go through
 * inventoryFromRankTable whole, as before: the same answer either way.
 */
import type { ServerSpec } from "@/lib/inventory/model";
import type { ClusterMode } from "@/lib/inventory/vocabulary";
import { isJsonObject, RankTableDocument, type Issue, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { StreamingTableParser, StreamSyntaxError } from "@/lib/rank-table/stream-parse";
import { StreamedServers } from "@/lib/rank-table/table-view";
import { validateStreamedTable } from "@/lib/rank-table/validate";
import { impliedLinks, inventoryFromRankTable, serverOf, superPodsOf, type Inventory } from "./import";

/**
 * Characters of text pushed to the parser at a time; servers (an A3 server is 16 dies: 16,384 dies a part) and links
 * per part at most.
 */
export const STREAM_SIZES = { chars: 1 << 20, servers: 1024, links: 65_536 };

/** What the check of the first pass leaves for the second: the table's mode and super pods. */
export interface StreamPlan {
  mode: ClusterMode;
  superPodIds: string[];
  podOf: Map<string, string>;
}

/** A parser that hands the entries of the first top-level `server_list` to `entry` (a second one is kept, and found). */
function serverListParser(entry: (value: JsonValue) => void): StreamingTableParser {
  let taken = false;
  return new StreamingTableParser((key) => {
    if (key !== "server_list" || taken) return undefined;
    taken = true;
    return entry;
  });
}

/** The table's root, when its server_list is the one whose `count` entries were handed on (an array of holes). */
function streamedRoot(value: JsonValue, count: number): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const list = value.server_list;
  return Array.isArray(list) && list.length === count && (count === 0 || !(0 in list)) ? value : undefined;
}

/**
 * Pass 1: the table's findings, exactly as validateRankTable's for the whole text; a plan when it can become an
 * inventory (no errors), undefined when this table is not read streamed.
 */
export function checkStreamedTable(text: string, { chars } = STREAM_SIZES): { plan: StreamPlan | null; issues: Issue[] } | undefined {
  const servers = new StreamedServers();
  const parser = serverListParser((entry) => servers.add(entry));
  let value: JsonValue;
  try {
    for (let at = 0; at < text.length; at += chars) parser.push(text.slice(at, at + chars));
    const table = parser.finish();
    if (table.commentCount > 0) return undefined;
    value = table.value;
  } catch (error) {
    if (error instanceof StreamSyntaxError) return undefined;
    throw error;
  }
  const root = streamedRoot(value, servers.count);
  if (root === undefined) return undefined;
  const report = validateStreamedTable(root, servers, new RankTableDocument(text, undefined, undefined, 0, -1));
  if (report === undefined) return undefined;
  // As inventoryFromRankTable decides: any error, listed or left out by the report's cap.
  if (!report.valid) return { plan: null, issues: report.issues };
  return { plan: { mode: report.mode, ...superPodsOf(root) }, issues: report.issues };
}

/** A die id as the links read it: one object per id, shared by every die that has it. */
const dieIds = Array.from({ length: 65 }, (_, deviceId) => Object.freeze({ deviceId }));

/** Pass 2: the inventory of a table checked by checkStreamedTable, in parts: its super pods, its servers a batch at a time, then its links. */
export function* streamedInventoryParts(text: string, { mode, superPodIds, podOf }: StreamPlan, sizes = STREAM_SIZES): Generator<Inventory> {
  const part = (servers: ServerSpec[], links: Inventory["links"], pods: string[] = []): Inventory => ({ mode, superPodIds: pods, servers, links });
  yield part([], [], mode === "super-pod" ? superPodIds : []);
  // What the links need of each server: its id, pod and die ids (the ids shared, so a die costs no object here).
  const linked: { serverId: string; superPodId: string | null; npus: { dies: { deviceId: number }[] }[] }[] = [];
  const batch: ServerSpec[] = [];
  const parser = serverListParser((entry) => {
    if (!isJsonObject(entry)) return;
    const server = serverOf(entry, mode, podOf);
    batch.push(server);
    linked.push({ serverId: server.serverId, superPodId: server.superPodId, npus: server.npus.map((npu) => ({ dies: npu.dies.map((die) => dieIds[die.deviceId] ?? { deviceId: die.deviceId }) })) });
  });
  for (let at = 0; at < text.length; at += sizes.chars) {
    parser.push(text.slice(at, at + sizes.chars));
    while (batch.length >= sizes.servers) yield part(batch.splice(0, sizes.servers), []);
  }
  parser.finish();
  if (batch.length > 0) yield part(batch, []);
  let links: Inventory["links"] = [];
  for (const link of impliedLinks(mode, superPodIds, linked)) {
    links.push(link);
    if (links.length === sizes.links) {
      yield part([], links);
      links = [];
    }
  }
  if (links.length > 0) yield part([], links);
}

/**
 * A rank table's text as the parts of its inventory (for insertClusterFromParts, db/queries/inventory.ts), streamed
 * when it can be; null parts when the table has errors or is not a table. The issues are the whole-table validation's.
 */
export function inventoryPartsFromRankTable(text: string): { parts: Iterable<Inventory> | null; issues: Issue[] } {
  const checked = checkStreamedTable(text);
  if (checked === undefined) {
    const { inventory, issues } = inventoryFromRankTable(text);
    return { parts: inventory && [inventory], issues };
  }
  return { parts: checked.plan && streamedInventoryParts(text, checked.plan), issues: checked.issues };
}
