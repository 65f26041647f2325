/**
 * The RT124 index of an incremental "2.0" state (a5-state.ts): who holds each address, one map for EIDs (compared
 * without case) and one per net_layer for host addresses, as checkAddressesUnique files them; and what an update
 * touched, so that only the holders of keys whose first holder moved are checked again.
 */
import type { A5AddressView, A5RankView } from "../a5-view";
import { eidForm } from "../checks/a5";
import { StringMap, type KeyedMap } from "../string-map";
import { firstHolder, type Holders } from "./holders";

export type AddressVisit = (map: StringMap<Holders>, key: string, ordinal: number, address: A5AddressView, eid: boolean) => void;

/**
 * What an update touched: the first holder, before the update, of every rank_id and address key a changed rank held
 * or holds (when it changes, every holder names another "other"), the servers whose members changed, the
 * positions of edited ranks whose levels stayed (their addresses stay filed and checked), and the keys of ranks
 * whose addresses were taken out or put in: a first holder among those may be at another path under the same key
 * (its levels changed, or a rank inserted took a removed rank's key), so its key's holders are checked again.
 */
export interface Touched {
  ids: Map<number, number | undefined>;
  addresses: Map<StringMap<Holders>, Map<string, number | undefined>>;
  servers: Set<string>;
  keptLevels: Set<number>;
  rekeyed: Set<number>;
}

export const newTouched = (): Touched => ({ ids: new Map(), addresses: new Map(), servers: new Set(), keptLevels: new Set(), rekeyed: new Set() });

/** Notes a key's first holder the first time an update touches it. */
export function noteFirst<K>(firsts: Map<K, number | undefined>, key: K, holders: KeyedMap<K, Holders>): void {
  if (firsts.has(key)) return;
  const current = holders.get(key);
  firsts.set(key, current === undefined ? undefined : firstHolder(current));
}

export function addressCount(rank: A5RankView): number {
  let count = 0;
  for (const level of rank.levels) count += level.addresses.length;
  return count;
}

export class AddressIndex {
  private readonly byEid = new StringMap<Holders>();
  private readonly byLayer = new Map<number | undefined, StringMap<Holders>>();
  /** An address holder is key × stride + its ordinal in the rank (a power of two above any rank's count). */
  stride = 1;

  /** Visits each address of a rank that has an addr, with the map and key RT124 files it under. */
  each(rank: A5RankView, visit: AddressVisit): void {
    let ordinal = 0;
    for (const level of rank.levels) {
      for (const address of level.addresses) {
        const at = ordinal++;
        const { addr, addrType } = address;
        if (addr === undefined) continue;
        const eid = addrType === "EID" || addrType?.toUpperCase() === "EID";
        let map = eid ? this.byEid : this.byLayer.get(level.netLayer);
        if (map === undefined) this.byLayer.set(level.netLayer, (map = new StringMap()));
        visit(map, eid && eidForm(addr) === 2 ? addr.toLowerCase() : addr, at, address, eid);
      }
    }
  }

  /** Notes the first holder of each of a rank's address keys. */
  note(rank: A5RankView, touched: Touched): void {
    this.each(rank, (map, text) => {
      let firsts = touched.addresses.get(map);
      if (firsts === undefined) touched.addresses.set(map, (firsts = new Map()));
      noteFirst(firsts, text, map);
    });
  }
}
