import type { Findings } from "../findings";
import type { AddressKey } from "../net";
import type { KeyedMap } from "../string-map";
import type { DeviceView, TableView } from "../table-view";

/** What every rule check reads: the table view, where findings go, and the version the table is checked as. */
export interface CheckContext {
  view: TableView;
  findings: Findings;
  /** The declared version, or (when `version` is missing) the one the layout implies. */
  version: "1.0" | "1.2";
  declaredVersion: string | undefined;
  /** The first device with each valid `device_ip`, by address key; filled by the device checks. */
  deviceByIp: Map<AddressKey, DeviceView>;
}

/** The label of a server in messages: its id, or its pointer when it has none. */
export function serverLabel(server: { serverId?: string; path: string }): string {
  return server.serverId ?? server.path;
}

/** "0-3,7,9-10": a sorted list of whole numbers as ranges, for messages. */
export function formatRanges(sorted: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]! <= sorted[j]! + 1) j++;
    parts.push(sorted[i] === sorted[j] ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

/** True when a sorted list of whole numbers has no gaps (duplicates are allowed: they are reported elsewhere). */
export function isContiguous(sorted: readonly number[]): boolean {
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! > 1) return false;
  return true;
}

/** Records the first item seen under each key; for any later item, returns the first one (for "also used by"). */
export function rememberFirst<K, V>(seen: KeyedMap<K, V>, key: K, item: V): V | undefined {
  const earlier = seen.get(key);
  if (earlier === undefined) seen.set(key, item);
  return earlier;
}
