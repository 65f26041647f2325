import { sql } from "drizzle-orm";
import type { Transaction } from "./inventory";
import { enterBulkMode, leaveBulkMode, validateInventoryKeys } from "./inventory-bulk";
import { encodeInventoryRows, inventoryCopyTargets, type EncodedInventoryRows, type EncoderState, type InventoryPart, type RowCounts } from "./inventory-rows";
import { copyText, transactionClient } from "./pg-copy";

export type WrittenCounts = RowCounts;

/**
 * One inventory writer at a time per database (pg_advisory_xact_lock, until its transaction ends): it takes row ids
 * from the sequences of super_pods, servers, npus and devices as one range each, numbers its rows itself, and moves
 * each sequence past what it used at the end. Only this writer inserts into those tables, so while it holds the lock
 * no other session draws from their sequences. Two imports at once therefore run one after the other.
 */
const idLockKey = 0x72_73_69_64; // "rsid"

const sequences = ["super_pods", "servers", "npus", "devices"] as const;

/**
 * Writes a cluster's inventory (super pods, servers, NPUs, dies, "2.0" network addresses, links) into an empty
 * cluster inside the caller's transaction, a part at a time: each part becomes its tables' rows in COPY text
 * (./inventory-rows.ts; the CLI does that in its worker thread) and is streamed in with one COPY per table
 * (./pg-copy.ts), then dropped. What it keeps between parts is the encoder's state (next ids, super pods by name).
 * So an inventory can be streamed in (`rankscope cluster add` reads one rank table at a time) and memory follows
 * the part, not the cluster. The rows go in with the foreign keys checked once at the end (./inventory-bulk.ts).
 */
export class InventoryWriter {
  private state: EncoderState | null = null;
  private first: EncoderState["next"] | null = null;
  private bulk = false;
  readonly counts: WrittenCounts = { superPods: 0, servers: 0, npus: 0, devices: 0, netAddresses: 0, links: 0 };

  constructor(
    private readonly tx: Transaction,
    private readonly clusterId: number,
  ) {}

  /** Takes the id lock and ranges and enters bulk mode; the state the first part is encoded from. */
  async start(): Promise<EncoderState> {
    if (this.state) return this.state;
    await this.tx.execute(sql`select pg_advisory_xact_lock(${idLockKey})`);
    const { rows } = await this.tx.execute<{ super_pods: number; servers: number; npus: number; devices: number }>(sql.raw(
      `select ${sequences.map((table) => `nextval(pg_get_serial_sequence('${table}', 'id'))::int as ${table}`).join(", ")}`,
    ));
    const next = { superPod: rows[0]!.super_pods, server: rows[0]!.servers, npu: rows[0]!.npus, device: rows[0]!.devices };
    this.first = next;
    this.bulk = await enterBulkMode(this.tx);
    this.state = { clusterId: this.clusterId, next, podPosition: 0, serverPosition: 0, pods: {} };
    return this.state;
  }

  /** Encodes a part here and writes it. */
  async addPart(part: Omit<InventoryPart, "mode">): Promise<void> {
    await this.writeRows(encodeInventoryRows(part, await this.start()));
  }

  /** Writes rows encoded (from this writer's state, part after part) elsewhere: one COPY per table. */
  async writeRows(rows: EncodedInventoryRows): Promise<void> {
    await this.start();
    const client = transactionClient(this.tx);
    for (const [key, target] of inventoryCopyTargets) await copyText(client, target, rows[key]);
    if (rows.unresolved) throw new Error(rows.unresolved);
    for (const key of Object.keys(this.counts) as (keyof WrittenCounts)[]) this.counts[key] += rows.counts[key];
    this.state = rows.state;
  }

  /**
   * Moves the sequences past the ids used; in bulk mode, checks every foreign key of the rows at once and turns the
   * per-row triggers back on.
   */
  async finish(): Promise<WrittenCounts> {
    if (!this.state || !this.first) return this.counts;
    const { next } = this.state;
    const used = { super_pods: next.superPod - 1, servers: next.server - 1, npus: next.npu - 1, devices: next.device - 1 };
    // setval(seq, n): the next nextval gives n + 1. The first value of each range was drawn by nextval, so n is at least it.
    await this.tx.execute(sql.raw(
      `select ${sequences.map((table) => `setval(pg_get_serial_sequence('${table}', 'id'), ${Math.max(used[table], 1)})`).join(", ")}`,
    ));
    if (this.bulk) {
      await validateInventoryKeys(this.tx, this.clusterId, this.counts.npus);
      await leaveBulkMode(this.tx);
      this.bulk = false;
    }
    return this.counts;
  }
}
