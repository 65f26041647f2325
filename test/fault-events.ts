import type pg from "pg";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { FaultStatistics } from "@/lib/faults/api-types";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";

/** Fault events written straight into fault_events, and statistics computed from them event by event, for tests. */

const hour = 3_600_000;

/** Deterministic pseudo-random numbers (mulberry32), so a failure replays. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface EventTarget {
  serverRef: number | null;
  deviceRef: number | null;
  superPodRef: number | null;
  key: string;
}

/** Every die and server of a cluster, as event targets. */
export async function eventTargets(pool: pg.Pool, clusterId: number): Promise<EventTarget[]> {
  const { rows } = await pool.query<{ server_ref: number; device_ref: number | null; super_pod_ref: number | null; key: string }>(
    `select s.id server_ref, d.id device_ref, s.super_pod_ref, 'die:' || s.server_id || '/' || d.device_id as key
     from servers s join devices d on d.server_ref = s.id where s.cluster_id = $1
     union all select s.id, null, s.super_pod_ref, 'server:' || s.server_id from servers s where s.cluster_id = $1`,
    [clusterId],
  );
  return rows.map((r) => ({ serverRef: r.server_ref, deviceRef: r.device_ref, superPodRef: r.super_pod_ref, key: r.key }));
}

const kinds = ["roce-link-down", "hccl-error", "npu-chip-fault", "gateway-probe-failure"] as const;
const levels: FaultLevel[] = ["NotHandleFault", "PreSeparateNPU", "RestartBusiness", "SeparateNPU", "SubHealthFault"];
const codes = ["81078603", "80E18402", "EI0006", "8C1F8608", null] as const;

export interface EventRow {
  id: string;
  began: number;
  ended: number | null;
  episode: string;
  target: EventTarget;
  kind: string;
  level: FaultLevel;
  /** The fault code; absent (null) for most HCCL and kind-only events. */
  code?: string | null;
}

let serial = 0;
export const nextEventId = () => `e${serial++}`;

/**
 * Random events in `span`: mostly short ones, some crossing hour boundaries, some lasting hours or days, some open,
 * some flapping (several events in one episode, across hours too), on dies, on servers and cluster-wide.
 */
export function randomEvents(next: () => number, targets: EventTarget[], count: number, span: [number, number]): EventRow[] {
  const rows: EventRow[] = [];
  const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  while (rows.length < count) {
    const target = next() < 0.1 ? { serverRef: null, deviceRef: null, superPodRef: null, key: "cluster" } : pick(targets);
    const began = Math.floor(span[0] + next() * (span[1] - span[0]));
    const shape = next();
    const duration = shape < 0.6 ? 1000 + next() * 300_000 : shape < 0.8 ? 10 * 60_000 + next() * 2 * hour : shape < 0.9 ? 3 * hour + next() * 40 * hour : null;
    const first = nextEventId();
    rows.push({ id: first, began, ended: duration === null ? null : began + Math.floor(duration), episode: first, target, kind: pick(kinds), level: pick(levels), code: pick(codes) });
    if (next() < 0.2) {
      let at = began + Math.floor(next() * 90 * 60_000);
      for (let flap = 0; flap < 1 + Math.floor(next() * 3); flap++) {
        const id = nextEventId();
        const ended = next() < 0.15 ? null : at + Math.floor(1000 + next() * 20 * 60_000);
        rows.push({ id, began: at, ended, episode: first, target, kind: pick(kinds), level: pick(levels), code: pick(codes) });
        at = (ended ?? at) + Math.floor(next() * 40 * 60_000);
      }
    }
  }
  return rows;
}

export async function insertEvents(pool: pg.Pool, clusterId: number, rows: EventRow[]): Promise<void> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  await pool.query(
    `insert into fault_events (id, cluster_id, target_kind, target_key, series_key, super_pod_ref, server_ref, device_ref, kind, source,
       reported_level, level, rule, episode_id, began_at, ended_at, code)
     select u.id, $1, (case split_part(u.key, ':', 1) when 'pod' then 'super-pod' else split_part(u.key, ':', 1) end)::fault_target_kind,
       u.key, u.key, u.super_pod_ref, u.server_ref, u.device_ref, u.kind::fault_kind, 'api', u.level::fault_level, u.level::fault_level, 'reported',
       u.episode, u.began, u.ended, u.code
     from unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::text[])
       as u(id, key, super_pod_ref, server_ref, device_ref, kind, level, episode, began, ended, code)`,
    [
      clusterId,
      rows.map((r) => r.id),
      rows.map((r) => r.target.key),
      rows.map((r) => r.target.superPodRef),
      rows.map((r) => r.target.serverRef),
      rows.map((r) => r.target.deviceRef),
      rows.map((r) => r.kind),
      rows.map((r) => r.level),
      rows.map((r) => r.episode),
      rows.map((r) => iso(r.began)),
      rows.map((r) => iso(r.ended)),
      rows.map((r) => r.code ?? null),
    ],
  );
}

const faulty = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");

/** The statistics computed from fault_events alone, event by event: what the rollups must reproduce. */
export async function directStatistics(pool: pg.Pool, cluster: ClusterHeader, from: number, to: number, now: number): Promise<FaultStatistics> {
  const end = Math.min(to, now);
  const params = [cluster.id, new Date(from).toISOString(), new Date(to).toISOString(), new Date(end).toISOString()];
  const window = `f.cluster_id = $1 and f.began_at < $3::timestamptz and (f.began_at >= $2::timestamptz or f.ended_at is null or f.ended_at > $2::timestamptz)`;
  const covered = `extract(epoch from (least(coalesce(f.ended_at, $4::timestamptz), $3::timestamptz) - greatest(f.began_at, $2::timestamptz))) * 1000`;
  // Placeholders $1–$3 always, $4 (the end of covered time) and on when used.
  const q = async <T extends pg.QueryResultRow>(sql: string, extra: unknown[] = []) =>
    (await pool.query<T>(sql, sql.includes("$4") ? [...params, ...extra] : params.slice(0, 3))).rows;
  const kindRows = await q<{ kind: string; n: string }>(`select kind::text, count(*) n from fault_events f where ${window} group by 1 order by 2 desc, kind::text collate "C"`);
  const levelRows = await q<{ level: FaultLevel; n: string }>(`select level::text, count(*) n from fault_events f where ${window} group by 1 order by 2 desc, level::text collate "C"`);
  const [mttr] = await q<{ mttr: string | null; recovered: string; open: string }>(
    `select avg(extract(epoch from (e.ended - e.began)) * 1000) filter (where e.ended is not null) as mttr,
       count(*) filter (where e.ended is not null) as recovered, count(*) filter (where e.ended is null) as open
     from (select min(f.began_at) began, case when bool_or(f.ended_at is null) then null else max(f.ended_at) end ended
           from fault_events f where ${window} group by f.episode_id) e`,
  );
  const servers = await q<{ server_id: string; n: string; ms: string }>(
    `select s.server_id, count(*) n, sum(${covered}) ms from fault_events f join servers s on s.id = f.server_ref
     where ${window} group by 1 order by 2 desc, 3 desc, 1 limit 10`,
  );
  const dies = await q<{ server_id: string; device_id: number; n: string; ms: string }>(
    `select s.server_id, d.device_id, count(*) n, sum(${covered}) ms from fault_events f
     join devices d on d.id = f.device_ref join servers s on s.id = d.server_ref
     where ${window} group by 1, 2 order by 3 desc, 4 desc, 1, 2 limit 10`,
  );
  const codeRows = await q<{ code: string; n: string; ms: string }>(
    `select f.code, count(*) n, sum(${covered}) ms from fault_events f where ${window} and f.code is not null
     group by 1 order by 2 desc, 3 desc, f.code collate "C" limit 10`,
  );
  const availability = await q<{ super_pod_id: string | null; dies: string; ms: string | null }>(
    `with pods as (select s.super_pod_ref, count(d.id) dies from servers s join devices d on d.server_ref = s.id where s.cluster_id = $1 group by 1),
     faulty as (select f.super_pod_ref, sum(${covered}) ms from fault_events f where ${window} and f.device_ref is not null and f.level = any($5::fault_level[]) group by 1)
     select p.super_pod_id, pods.dies, faulty.ms from pods left join super_pods p on p.id = pods.super_pod_ref
     left join faulty on faulty.super_pod_ref is not distinct from pods.super_pod_ref order by p.position nulls first`,
    [faulty],
  );
  const spanMs = Math.max(1, end - from);
  return {
    from,
    to,
    byKind: kindRows.map((r) => ({ kind: r.kind as FaultStatistics["byKind"][number]["kind"], count: Number(r.n) })),
    byLevel: levelRows.map((r) => ({ level: r.level, count: Number(r.n) })),
    mttrMs: mttr?.mttr == null ? null : Number(mttr.mttr),
    recovered: Number(mttr?.recovered ?? 0),
    open: Number(mttr?.open ?? 0),
    topServers: servers.map((r) => ({ serverId: r.server_id, count: Number(r.n), faultMs: Number(r.ms) })),
    topDies: dies.map((r) => ({ serverId: r.server_id, deviceId: r.device_id, count: Number(r.n), faultMs: Number(r.ms) })),
    topCodes: codeRows.map((r) => ({ code: r.code, count: Number(r.n), faultMs: Number(r.ms) })),
    availability: availability.map((r) => {
      const faultyDieMs = Math.max(0, Number(r.ms ?? 0));
      return { superPodId: r.super_pod_id, dies: Number(r.dies), faultyDieMs, availability: Math.max(0, 1 - faultyDieMs / (Number(r.dies) * spanMs)) };
    }),
  };
}


/** Events as a feeder posts them to POST /api/v1/fault-events (A3 demo cluster), with times in seconds after `t0`. */
export function postedEvents(t0: number) {
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const linkDown = (server: string, die: number, begin: number, end: number | null, extra: object = {}) => ({
    cluster: "atlas-a3-demo",
    kind: "roce-link-down",
    source: "simulator",
    code: "81078603",
    target: { server, die },
    beganAt: at(begin),
    ...(end === null ? {} : { endedAt: at(end) }),
    ...extra,
  });
  return { at, linkDown };
}
