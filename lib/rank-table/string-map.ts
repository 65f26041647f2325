/**
 * A map from strings, for the millions of keys RT124 files (a 524,288-rank "2.0" table has 2,097,152 addresses): an
 * open-addressing table (linear probing, backward-shift deletion) whose slots are a typed array. A V8 Map took
 * 1.6-2.1 s to take 2,097,152 32-character keys, the same probing over an Int32Array 0.7-0.9 s (Node 20, load 10); in
 * the incremental validator's first run at 524,288 ranks the Map inserts were 3.7 s of 7.8 s CPU.
 * Only what the validators use: get, set, delete, size.
 */

/** FNV-1a over the UTF-16 units: a different hash for each of the near-identical hex EIDs of a table. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}

const EMPTY = -1;

/** What the uniqueness rules need of a map: a Map or a StringMap. */
export interface KeyedMap<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
  delete(key: K): boolean;
}

export class StringMap<V> implements KeyedMap<string, V> {
  /** Per slot, the index of its entry in `keys`/`values`, or EMPTY. */
  private slots = new Int32Array(16).fill(EMPTY);
  private keys: string[] = [];
  private values: V[] = [];
  private hashes: number[] = [];
  /** Entries freed by delete, reused by set. */
  private free: number[] = [];
  private count = 0;
  /** The last key hashed and its hash: a get then a set of one key (addHolder, rememberFirst) hash it once. */
  private lastKey: string | undefined;
  private lastHash = 0;

  get size(): number {
    return this.count;
  }

  private hash(key: string): number {
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastHash = hashOf(key);
    }
    return this.lastHash;
  }

  /** The slot holding `key`, or -1 − the empty slot where it would go. */
  private find(key: string, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return -1 - slot;
      if (this.hashes[entry] === hash && this.keys[entry] === key) return slot;
    }
  }

  get(key: string): V | undefined {
    const slot = this.find(key, this.hash(key));
    return slot < 0 ? undefined : this.values[this.slots[slot]!];
  }

  has(key: string): boolean {
    return this.find(key, this.hash(key)) >= 0;
  }

  set(key: string, value: V): this {
    const hash = this.hash(key);
    const slot = this.find(key, hash);
    if (slot >= 0) {
      this.values[this.slots[slot]!] = value;
      return this;
    }
    const entry = this.free.pop() ?? this.keys.length;
    this.keys[entry] = key;
    this.values[entry] = value;
    this.hashes[entry] = hash;
    this.slots[-1 - slot] = entry;
    // At most half full: probes stay short.
    if (++this.count * 2 > this.slots.length) this.grow();
    return this;
  }

  delete(key: string): boolean {
    const slot = this.find(key, this.hash(key));
    if (slot < 0) return false;
    const entry = this.slots[slot]!;
    this.keys[entry] = undefined as unknown as string;
    this.values[entry] = undefined as V;
    this.free.push(entry);
    this.count--;
    // Backward shift: entries after the freed slot move up when their home slot is not between it and them.
    const mask = this.slots.length - 1;
    let hole = slot;
    for (let next = (hole + 1) & mask; this.slots[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.hashes[this.slots[next]!]! & mask;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        this.slots[hole] = this.slots[next]!;
        hole = next;
      }
    }
    this.slots[hole] = EMPTY;
    return true;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (const entry of this.slots) {
      if (entry === EMPTY) continue;
      let slot = this.hashes[entry]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.slots = slots;
  }
}
