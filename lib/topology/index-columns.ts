import type { DieSpec } from "@/lib/inventory/model";
import { linkKinds, type LinkKind } from "@/lib/inventory/vocabulary";
import { linkEndsOf, type InventorySnapshot } from "./inventory-snapshot";

/**
 * The topology index's dies and links as columns (./inventory-index.ts): typed arrays and the snapshot's own string
 * arrays, no object per die or link, so a fresh process builds a 524,288-NPU SuperCluster's index in a few passes
 * over arrays and the collector has few objects to trace (issue 21: 4 of the 5 s CPU of the object index went to
 * garbage collection).
 *
 * A die has a row and a rank. Rows: servers in inventory order, then NPU index, then die index (the order of
 * NPUs and their dies). Ranks: servers in inventory order, then device id (a rank table's order). Both number a
 * server's dies from the same start, so `serverStart` bounds either.
 */
export class DieColumns {
  constructor(
    /** Server s holds rows and ranks [serverStart[s], serverStart[s + 1]). */
    readonly serverStart: Uint32Array,
    readonly rowOfRank: Uint32Array,
    readonly rankOfRow: Uint32Array,
    /** Per row; NaN stands for null in the nullable number columns. */
    readonly npuIndex: Float64Array,
    readonly deviceId: Float64Array,
    readonly dieIndex: Uint8Array,
    readonly superDeviceId: Float64Array,
    readonly devicePort: Float64Array,
    readonly backupDevicePort: Float64Array,
    readonly hostPort: Float64Array,
    readonly deviceIp: readonly (string | null)[],
    readonly backupDeviceIp: readonly (string | null)[],
  ) {}

  /** A row's fields as the inventory gives them. */
  spec(row: number): DieSpec {
    return {
      deviceId: this.deviceId[row]!,
      dieIndex: this.dieIndex[row]! as 0 | 1,
      superDeviceId: orNull(this.superDeviceId[row]!),
      deviceIp: this.deviceIp[row]!,
      devicePort: orNull(this.devicePort[row]!),
      backupDeviceIp: this.backupDeviceIp[row]!,
      backupDevicePort: orNull(this.backupDevicePort[row]!),
      hostPort: orNull(this.hostPort[row]!),
    };
  }

  /** How many NPUs rows [from, to) of one server hold (runs of one NPU index). */
  npusOf(from: number, to: number): number {
    let npus = 0;
    for (let row = from; row < to; row++) if (row === from || this.npuIndex[row] !== this.npuIndex[row - 1]) npus++;
    return npus;
  }
}

export interface LinkColumns {
  kinds: readonly LinkKind[];
  /** A die's link ends are [start[rank], start[rank + 1]): the peer's rank and the kind (a place in `kinds`). */
  start: Uint32Array;
  peer: Uint32Array;
  kind: Uint8Array;
  /** Dies with at least one link. */
  linkedDies: number;
}

const orNull = (value: number) => (Number.isNaN(value) ? null : value);

function numbers(column: readonly (number | null)[], posOfRow: Uint32Array): Float64Array {
  const out = new Float64Array(posOfRow.length);
  for (let row = 0; row < out.length; row++) {
    const value = column[posOfRow[row]!];
    out[row] = value === null || value === undefined ? NaN : value;
  }
  return out;
}

/** Stably sorts `order[from, to)` by `key` unless it is in order already (the usual case: a pass, no sort). */
function sortSlice(order: Uint32Array, from: number, to: number, before: (a: number, b: number) => number): void {
  let sorted = true;
  for (let i = from + 1; i < to && sorted; i++) sorted = before(order[i - 1]!, order[i]!) <= 0;
  if (sorted) return;
  const slice = Array.from(order.subarray(from, to)).sort(before);
  order.set(slice, from);
}

/** The columns of a snapshot's dies and links. */
export function indexColumnsOf(snapshot: InventorySnapshot): { dies: DieColumns; links: LinkColumns } {
  const { dies } = snapshot;
  const count = dies.server.length;
  const serverCount = snapshot.servers.length;
  // Rows: a stable counting sort of the snapshot's dies by server (the snapshot lists them by server row id, which
  // is the inventory's order unless servers were moved), then by NPU and die index within each server.
  const serverStart = new Uint32Array(serverCount + 1);
  for (let pos = 0; pos < count; pos++) serverStart[dies.server[pos]! + 1]!++;
  for (let s = 0; s < serverCount; s++) serverStart[s + 1]! += serverStart[s]!;
  const posOfRow = new Uint32Array(count);
  const cursor = serverStart.slice(0, serverCount);
  for (let pos = 0; pos < count; pos++) posOfRow[cursor[dies.server[pos]!]!++] = pos;
  const { npuIndex, dieIndex, deviceId } = dies;
  for (let s = 0; s < serverCount; s++) {
    sortSlice(posOfRow, serverStart[s]!, serverStart[s + 1]!, (a, b) => npuIndex[a]! - npuIndex[b]! || dieIndex[a]! - dieIndex[b]!);
  }
  // Ranks: each server's rows by device id, stably.
  const rowOfRank = new Uint32Array(count);
  for (let i = 0; i < count; i++) rowOfRank[i] = i;
  for (let s = 0; s < serverCount; s++) {
    sortSlice(rowOfRank, serverStart[s]!, serverStart[s + 1]!, (a, b) => deviceId[posOfRow[a]!]! - deviceId[posOfRow[b]!]!);
  }
  const rankOfRow = new Uint32Array(count);
  for (let rank = 0; rank < count; rank++) rankOfRow[rowOfRank[rank]!] = rank;

  let identity = true;
  for (let row = 0; row < count && identity; row++) identity = posOfRow[row] === row;
  const strings = (column: readonly (string | null)[]) => (identity ? column : Array.from(posOfRow, (pos) => column[pos]!));
  const dieIndexes = new Uint8Array(count);
  for (let row = 0; row < count; row++) dieIndexes[row] = dieIndex[posOfRow[row]!]!;
  const dieColumns = new DieColumns(
    serverStart,
    rowOfRank,
    rankOfRow,
    numbers(npuIndex, posOfRow),
    numbers(deviceId, posOfRow),
    dieIndexes,
    numbers(dies.superDeviceId, posOfRow),
    numbers(dies.devicePort, posOfRow),
    numbers(dies.backupDevicePort, posOfRow),
    numbers(dies.hostPort, posOfRow),
    strings(dies.deviceIp),
    strings(dies.backupDeviceIp),
  );

  // Links: both ends of each, per die in link order (an adjacency list in three arrays).
  const rankOfPos = new Uint32Array(count);
  for (let row = 0; row < count; row++) rankOfPos[posOfRow[row]!] = rankOfRow[row]!;
  const { kind } = snapshot.links;
  const { source, target } = linkEndsOf(snapshot);
  const start = new Uint32Array(count + 1);
  for (let i = 0; i < kind.length; i++) {
    start[rankOfPos[source[i]!]! + 1]!++;
    start[rankOfPos[target[i]!]! + 1]!++;
  }
  let linkedDies = 0;
  for (let rank = 0; rank < count; rank++) {
    if (start[rank + 1]! > 0) linkedDies++;
    start[rank + 1]! += start[rank]!;
  }
  // Kinds as places in the vocabulary's list, whatever list the snapshot's were places in.
  const kindOf = snapshot.kinds.map((label) => linkKinds.indexOf(label));
  const peer = new Uint32Array(2 * kind.length);
  const kinds = new Uint8Array(2 * kind.length);
  const next = start.slice(0, count);
  for (let i = 0; i < kind.length; i++) {
    const a = rankOfPos[source[i]!]!;
    const b = rankOfPos[target[i]!]!;
    const k = kindOf[kind[i]!]!;
    peer[next[a]!] = b;
    kinds[next[a]!++] = k;
    peer[next[b]!] = a;
    kinds[next[b]!++] = k;
  }
  return { dies: dieColumns, links: { kinds: linkKinds, start, peer, kind: kinds, linkedDies } };
}
