import { sql } from "drizzle-orm";
import type { DieSpec, LinkSpec, ServerSpec } from "@/lib/inventory/model";
import type { Transaction } from "./inventory";
import { arrayLiteral } from "./pg-array";

/**
 * Rows per statement. Every statement sends one array parameter per column (`unnest`, see pg-array.ts), so its size
 * does not grow in parameters; 20,000 rows keeps each under a few MB of text while a 524,288-NPU cluster's 2.1M
 * network addresses take about a hundred statements instead of the thousand 2,000-row inserts did.
 */
const rowsPerStatement = 20_000;
/** device_id is in [0, 64] (db/schema/device/table.ts devices_device_id_range): a server's dies fit 65 slots. */
const deviceSlots = 65;

export interface WrittenCounts {
  superPods: number;
  servers: number;
  npus: number;
  devices: number;
  netAddresses: number;
  links: number;
}

/** One array parameter per column of `rows`: `column((row) => value)` is its `{…}` literal. */
function columnOf<Row>(rows: readonly Row[]) {
  return (pick: (row: Row) => string | number | null) => arrayLiteral(rows.map(pick));
}

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += rowsPerStatement) yield rows.slice(i, i + rowsPerStatement);
}

/**
 * Writes a cluster's inventory (super pods, servers, NPUs, dies, "2.0" network addresses, links) into an empty
 * cluster inside the caller's transaction, a batch at a time: servers are buffered until they hold about a
 * statement's worth of dies, then written in a few set-based statements, and dropped. What it keeps between batches
 * is small: the ids of super pods and servers by name, and per server its dies' row ids (65 ints), which links
 * resolve against. So an inventory can be streamed in (`rankscope cluster add` reads one rank table at a time) and
 * memory follows the batch, not the cluster.
 */
export class InventoryWriter {
  private readonly podRefs = new Map<string, number>();
  private readonly serverRefs = new Map<string, number>();
  private readonly dieRefs = new Map<number, Int32Array>();
  private pendingServers: ServerSpec[] = [];
  private pendingDies = 0;
  private pendingLinks: LinkSpec[] = [];
  private serverPosition = 0;
  readonly counts: WrittenCounts = { superPods: 0, servers: 0, npus: 0, devices: 0, netAddresses: 0, links: 0 };

  constructor(
    private readonly tx: Transaction,
    private readonly clusterId: number,
  ) {}

  /** Super pods in order; ids already written are skipped (an inventory streamed per super pod names each again). */
  async addSuperPods(ids: readonly string[]): Promise<void> {
    const fresh = [...new Set(ids)].filter((id) => !this.podRefs.has(id));
    if (!fresh.length) return;
    const { rows } = await this.tx.execute<{ id: number; super_pod_id: string }>(sql`
      insert into super_pods (cluster_id, super_pod_id, position)
      select ${this.clusterId}, u.super_pod_id, u.n - 1 + ${this.podRefs.size}
      from unnest(${arrayLiteral(fresh)}::text[]) with ordinality as u(super_pod_id, n)
      returning id, super_pod_id`);
    for (const row of rows) this.podRefs.set(row.super_pod_id, row.id);
    this.counts.superPods += rows.length;
  }

  /** Servers in inventory order (their super pods added first); written when a batch's worth is buffered. */
  async addServers(servers: readonly ServerSpec[]): Promise<void> {
    for (const server of servers) {
      this.pendingServers.push(server);
      for (const npu of server.npus) this.pendingDies += npu.dies.length;
      if (this.pendingDies >= rowsPerStatement) await this.flushServers();
    }
  }

  /** Links between dies of servers added before or in this call's batch (written once their servers are). */
  async addLinks(links: readonly LinkSpec[]): Promise<void> {
    for (const link of links) {
      this.pendingLinks.push(link);
      if (this.pendingLinks.length >= rowsPerStatement) await this.flushLinks();
    }
  }

  /** Writes whatever is still buffered. */
  async finish(): Promise<WrittenCounts> {
    await this.flushLinks();
    return this.counts;
  }

  private requireRef<K>(refs: Map<K, number>, key: K, what: string): number {
    const ref = refs.get(key);
    if (ref === undefined) throw new Error(`the inventory names a ${what} it does not define: ${String(key)}`);
    return ref;
  }

  private dieRef(serverId: string, deviceId: number): number {
    const ref = this.dieRefs.get(this.requireRef(this.serverRefs, serverId, "server"))?.[deviceId] ?? 0;
    if (ref === 0) throw new Error(`the inventory names a die it does not define: ${serverId}/${deviceId}`);
    return ref;
  }

  /**
   * Row ids for the next servers, NPUs and dies, taken from their tables' sequences in one round trip: with the ids
   * known here, no insert has to return rows (and the NPUs and dies need no key map built from them).
   */
  private async reserveIds(servers: number, npus: number, dies: number): Promise<{ servers: number[]; npus: number[]; dies: number[] }> {
    const { rows } = await this.tx.execute<{ servers: number[]; npus: number[]; dies: number[] }>(sql`
      select array(select nextval(pg_get_serial_sequence('servers', 'id'))::int from generate_series(1, ${servers})) as servers,
        array(select nextval(pg_get_serial_sequence('npus', 'id'))::int from generate_series(1, ${npus})) as npus,
        array(select nextval(pg_get_serial_sequence('devices', 'id'))::int from generate_series(1, ${dies})) as dies`);
    return rows[0]!;
  }

  private async flushServers(): Promise<void> {
    const batch = this.pendingServers;
    if (!batch.length) return;
    this.pendingServers = [];
    this.pendingDies = 0;
    const { clusterId } = this;
    const npuCount = batch.reduce((n, s) => n + s.npus.length, 0);
    const dieCount = batch.reduce((n, s) => n + s.npus.reduce((m, npu) => m + npu.dies.length, 0), 0);
    const ids = await this.reserveIds(batch.length, npuCount, dieCount);

    const first = this.serverPosition;
    this.serverPosition += batch.length;
    const serverRows = batch.map((spec, i) => {
      // A twin server id is left for the database to refuse (servers_cluster_server_id), as it always was.
      this.serverRefs.set(spec.serverId, ids.servers[i]!);
      return { id: ids.servers[i]!, spec, podRef: spec.superPodId === null ? null : this.requireRef(this.podRefs, spec.superPodId, "super pod") };
    });
    const server = columnOf(serverRows);
    await this.tx.execute(sql`
      insert into servers (id, cluster_id, super_pod_ref, server_id, host_ip, model, position)
      select u.id, ${clusterId}, u.super_pod_ref, u.server_id, u.host_ip, u.model, u.n - 1 + ${first}
      from unnest(${server((s) => s.id)}::int[], ${server((s) => s.podRef)}::int[], ${server((s) => s.spec.serverId)}::text[],
        ${server((s) => s.spec.hostIp)}::inet[], ${server((s) => s.spec.model)}::text[]) with ordinality
        as u(id, super_pod_ref, server_id, host_ip, model, n)`);
    this.counts.servers += batch.length;

    const npuRows: { id: number; serverRef: number; npuIndex: number }[] = [];
    const dieRows: { id: number; serverRef: number; npuRef: number; die: DieSpec }[] = [];
    for (const { id: serverRef, spec } of serverRows) {
      const slots = new Int32Array(deviceSlots);
      this.dieRefs.set(serverRef, slots);
      for (const npu of spec.npus) {
        const npuRef = ids.npus[npuRows.length]!;
        npuRows.push({ id: npuRef, serverRef, npuIndex: npu.npuIndex });
        for (const die of npu.dies) {
          const id = ids.dies[dieRows.length]!;
          // A twin device id is left for the database to refuse (devices_server_device_id), as it always was.
          if (die.deviceId >= 0 && die.deviceId < deviceSlots) slots[die.deviceId] ||= id;
          dieRows.push({ id, serverRef, npuRef, die });
        }
      }
    }
    for (const rows of chunks(npuRows)) {
      const npu = columnOf(rows);
      await this.tx.execute(sql`
        insert into npus (id, server_ref, npu_index)
        select * from unnest(${npu((n) => n.id)}::int[], ${npu((n) => n.serverRef)}::int[], ${npu((n) => n.npuIndex)}::int[])`);
    }
    this.counts.npus += npuRows.length;

    for (const rows of chunks(dieRows)) {
      const die = columnOf(rows);
      await this.tx.execute(sql`
        insert into devices (id, cluster_id, server_ref, npu_ref, device_id, die_index, super_device_id, device_ip, device_port,
          backup_device_ip, backup_device_port, host_port)
        select u.id, ${clusterId}, u.server_ref, u.npu_ref, u.device_id, u.die_index, u.super_device_id, u.device_ip, u.device_port,
          u.backup_device_ip, u.backup_device_port, u.host_port
        from unnest(${die((d) => d.id)}::int[], ${die((d) => d.serverRef)}::int[], ${die((d) => d.npuRef)}::int[],
          ${die((d) => d.die.deviceId)}::int[], ${die((d) => d.die.dieIndex)}::int[], ${die((d) => d.die.superDeviceId)}::bigint[],
          ${die((d) => d.die.deviceIp)}::inet[], ${die((d) => d.die.devicePort)}::int[], ${die((d) => d.die.backupDeviceIp)}::inet[],
          ${die((d) => d.die.backupDevicePort)}::int[], ${die((d) => d.die.hostPort)}::int[])
          as u(id, server_ref, npu_ref, device_id, die_index, super_device_id, device_ip, device_port, backup_device_ip, backup_device_port, host_port)`);
    }
    this.counts.devices += dieRows.length;

    // The network levels of "2.0" ranks: a row per address of each level.
    const addressValues = dieRows.flatMap(({ id: deviceRef, die }) =>
      (die.netLevels ?? []).flatMap((level) => level.addresses.map((address, position) => ({ deviceRef, level, position, address }))),
    );
    for (const rows of chunks(addressValues)) {
      const a = columnOf(rows);
      await this.tx.execute(sql`
        insert into device_net_addresses (cluster_id, device_ref, net_layer, net_instance_id, net_type, position, addr_type, addr, ports, plane_id)
        select ${clusterId}, u.device_ref, u.net_layer, u.net_instance_id, u.net_type, u.position, u.addr_type, u.addr, u.ports::text[], u.plane_id
        from unnest(${a((r) => r.deviceRef)}::int[], ${a((r) => r.level.netLayer)}::int[], ${a((r) => r.level.netInstanceId)}::text[],
          ${a((r) => r.level.netType)}::text[], ${a((r) => r.position)}::int[], ${a((r) => r.address.addrType)}::text[],
          ${a((r) => r.address.addr)}::text[], ${a((r) => arrayLiteral(r.address.ports))}::text[], ${a((r) => r.address.planeId)}::text[])
          as u(device_ref, net_layer, net_instance_id, net_type, position, addr_type, addr, ports, plane_id)`);
    }
    this.counts.netAddresses += addressValues.length;
  }

  private async flushLinks(): Promise<void> {
    await this.flushServers();
    const batch = this.pendingLinks;
    if (!batch.length) return;
    this.pendingLinks = [];
    const ends = batch.map((link) => {
      const a = this.dieRef(link.source.serverId, link.source.deviceId);
      const b = this.dieRef(link.target.serverId, link.target.deviceId);
      // Links are undirected and stored once, source < target (links_ordered_pair).
      return { kind: link.kind, source: Math.min(a, b), target: Math.max(a, b) };
    });
    for (const rows of chunks(ends)) {
      const link = columnOf(rows);
      await this.tx.execute(sql`
        insert into links (cluster_id, kind, source_device, target_device)
        select ${this.clusterId}, u.kind::link_kind, u.source, u.target
        from unnest(${link((l) => l.kind)}::text[], ${link((l) => l.source)}::int[], ${link((l) => l.target)}::int[]) as u(kind, source, target)`);
    }
    this.counts.links += ends.length;
  }
}
