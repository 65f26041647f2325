import { coversSnapshot, xidVisible, type XactSnapshot } from "./xact-snapshot";

/*
 * What an instance has heard of the changes to each cluster's faults (the transaction ids its NOTIFYs carry), and
 * what an answer computed from a snapshot must therefore see before this instance may serve it (issue 20: one
 * computation shared by every instance; server/faults/read-cache.ts).
 *
 * An answer covers what was heard of a cluster when:
 * - every heard transaction id of the cluster is visible in its snapshot (lib/xact-snapshot.ts). Ids heard long ago
 *   (past `keepMs`, or past `maxPerCluster` of them) are folded into one floor that must be below the snapshot's xmin:
 *   stricter than visibility, so an answer computed while a transaction older than them still ran is not served;
 * - it sees every transaction committed when each barrier was taken: when LISTEN was (re)established (changes made
 *   before were never heard), and after this instance's own write (whose NOTIFY comes a moment later). While a barrier
 *   is being taken (`pending`) nothing covers.
 */

export interface HeardChangesOptions {
  keepMs?: number;
  maxPerCluster?: number;
  now?: () => number;
}

/** What an answer must see: taken when a caller asks, checked against the snapshots of answers found later. */
export interface Requirement {
  xids: readonly bigint[];
  /** Every id up to this one must be below the snapshot's xmin (ids folded away), or undefined. */
  floor: bigint | undefined;
  barriers: readonly XactSnapshot[];
  /** A barrier is still being taken, or could not be: nothing covers. */
  blocked: boolean;
}

interface Heard {
  xids: { xid: bigint; at: number }[];
  floor: bigint | undefined;
}

export class HeardChanges {
  private readonly clusters = new Map<string, Heard>();
  private readonly barriers = new Map<string, XactSnapshot | "pending">();
  private readonly keepMs: number;
  private readonly maxPerCluster: number;
  private readonly now: () => number;

  constructor(options: HeardChangesOptions = {}) {
    this.keepMs = options.keepMs ?? 60_000;
    this.maxPerCluster = options.maxPerCluster ?? 4_096;
    this.now = options.now ?? Date.now;
  }

  /** A change of a cluster (known by each of `names`: slug and id) committed by transaction `xid`. */
  heard(names: readonly string[], xid: bigint): void {
    const at = this.now();
    for (const name of names) {
      const entry = this.clusters.get(name) ?? { xids: [], floor: undefined };
      this.clusters.set(name, entry);
      entry.xids.push({ xid, at });
      while (entry.xids.length > 0 && (entry.xids.length > this.maxPerCluster || at - entry.xids[0]!.at > this.keepMs)) {
        const { xid: old } = entry.xids.shift()!;
        if (entry.floor === undefined || old > entry.floor) entry.floor = old;
      }
    }
  }

  /** Sets barrier `name` (a snapshot taken after what it stands for had committed), or `pending` while it is taken. */
  barrier(name: string, snapshot: XactSnapshot | "pending"): void {
    this.barriers.set(name, snapshot);
  }

  /** What an answer for `cluster` must see now. */
  requirement(cluster: string): Requirement {
    const entry = this.clusters.get(cluster);
    const barriers = [...this.barriers.values()];
    return {
      xids: entry?.xids.map((e) => e.xid) ?? [],
      floor: entry?.floor,
      barriers: barriers.filter((b): b is XactSnapshot => b !== "pending"),
      blocked: barriers.includes("pending"),
    };
  }
}

/** Whether an answer computed from `snapshot` covers `requirement`. */
export function covers(snapshot: XactSnapshot, requirement: Requirement): boolean {
  if (requirement.blocked) return false;
  if (requirement.floor !== undefined && requirement.floor >= snapshot.xmin) return false;
  return requirement.xids.every((xid) => xidVisible(snapshot, xid)) && requirement.barriers.every((barrier) => coversSnapshot(snapshot, barrier));
}
