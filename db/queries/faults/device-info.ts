import { drizzle } from "drizzle-orm/node-postgres";
import type { DeviceInfoResult } from "@/lib/faults/api-types";
import { knownIndex, parseDeviceInfo, type DeviceInfoSnapshot } from "@/lib/faults/device-info";
import { faultProblem, type FaultProblem } from "@/lib/faults/errors";
import { seriesKey } from "@/lib/faults/escalation";
import { stableEventId } from "@/lib/faults/ids";
import { defaultLevelByKind, targetKey } from "@/lib/faults/model";
import { chipFaultKey, diffSnapshot, switchFaultKey } from "@/lib/faults/snapshot";
import { DomainError } from "@/lib/errors";
import { switchFaultReach } from "@/lib/fabric/impact";
import { chipAlarmPortId, placeSwitchFault } from "@/lib/fabric/switch-faults";
import { FindingCap, mergeOmitted, quoted } from "@/lib/report-limits";
import type { DatabaseHandle } from "../../client";
import * as schema from "../../schema";
import { faultChannel } from "../../schema/fault-event/constants";
import { inTransaction, notify } from "../../transaction";
import { recordAudit, type AuditActor } from "../audit";
import { findCluster } from "../clusters";
import { nodeChipsOfServer } from "../fabric";
import { insertEvents } from "./insert";
import { reevaluateSeries } from "./judgement";
import type { FaultNotice, PreparedEvent } from "./model";
import { lockSeries } from "./series-locks";
import { getFaultSettings } from "./settings";
import { dieOf, loadServerDies, loadTargetIndex, type TargetIndex } from "./target-index";

/**
 * The snapshot's cluster (not_found, 404) or node (invalid, 422) is not in the inventory; the code says which and
 * the details carry the reason and its params (lib/faults/errors.ts).
 */
function targetError(code: "unknown_cluster" | "unknown_node", problem: FaultProblem): DomainError {
  return new DomainError(code === "unknown_cluster" ? "not_found" : "invalid", problem.message, {
    code,
    details: { reason: problem.reason, params: problem.params },
  });
}

/** The server a snapshot belongs to: by node name (= server id or host IP), else by SuperPodID + ServerIndex (A3). */
function resolveServer(index: TargetIndex, snapshot: DeviceInfoSnapshot, node: string | null) {
  const name = node ?? snapshot.nodeName;
  if (name) {
    const server = index.servers.get(name) ?? index.serversByHost.get(name);
    if (server) return server;
  }
  const pod = knownIndex(snapshot.superPodId);
  const slot = knownIndex(snapshot.serverIndex);
  if (pod !== null && slot !== null) {
    for (const server of index.servers.values()) if (server.superPodId === String(pod) && server.podIndex === slot) return server;
  }
  if (!name) throw targetError("unknown_node", faultProblem("node_unnamed"));
  throw targetError(
    "unknown_node",
    pod !== null && slot !== null ? faultProblem("unknown_node_slot", { node: name, superPod: pod, slot }) : faultProblem("unknown_node", { node: name }),
  );
}

/** What an opened event is about, as the snapshot names it: the chip (`Ascend910-4`) or the switch chip and port. */
function openedTarget(event: PreparedEvent): Pick<DeviceInfoResult["opened"][number], "npuName" | "switchPort"> {
  const raw = event.raw as { npu_name?: string; SwitchChipId?: number; SwitchPortId?: number; AssembledFaultCode?: string; fabric?: { plane?: string } };
  if (raw.npu_name !== undefined) return { npuName: raw.npu_name, switchPort: null };
  return {
    npuName: null,
    switchPort: { chipId: raw.SwitchChipId ?? 0, portId: raw.SwitchPortId ?? 0, assembledCode: raw.AssembledFaultCode ?? "", plane: raw.fabric?.plane ?? null },
  };
}

/**
 * Takes one device-info ConfigMap snapshot: faults that appeared open events (source device-info-cm), faults that
 * cleared close theirs at the snapshot's UpdateTime, and a snapshot older than the last one is ignored. Malformed
 * input throws DeviceInfoError from the parser before anything is read or written.
 */
export async function ingestDeviceInfo(
  handle: DatabaseHandle,
  input: { cluster: string; node?: string | null; body: unknown },
  actor: AuditActor,
  now = Date.now(),
): Promise<DeviceInfoResult> {
  const snapshot = parseDeviceInfo(input.body);
  const cluster = await findCluster(handle.db, input.cluster);
  if (!cluster) throw targetError("unknown_cluster", faultProblem("unknown_cluster", { cluster: input.cluster }));
  const index = await loadTargetIndex(handle.pool, cluster);
  const server = resolveServer(index, snapshot, input.node ?? null);
  await loadServerDies(handle.pool, [server]);
  const settings = await getFaultSettings(handle.pool, cluster.id);
  // The server's node-side bus chips in the stored fabric: where its SwitchInfoCfg faults land.
  const chips = snapshot.switchInfo?.faults.length ? await nodeChipsOfServer(handle.db, cluster.id, server.ref) : new Map();
  const warnings = [...snapshot.warnings];
  // Warnings found here (a fault of a chip that is not a die of the server) are capped like the parser's.
  const cap = new FindingCap();
  const warn = (problem: FaultProblem) => cap.push(warnings, problem, problem.reason);

  return inTransaction(handle.pool, async (client) => {
    const base: DeviceInfoResult = {
      cluster: cluster.slug,
      server: server.serverId,
      nodeName: snapshot.nodeName,
      updateTime: snapshot.updateTime,
      checkCode: snapshot.checkCodeStatus,
      warnings,
      ...(snapshot.omittedWarnings ? { omittedWarnings: snapshot.omittedWarnings } : {}),
      stale: false,
      changed: false,
      opened: [],
      closed: [],
      unchanged: 0,
    };
    // One snapshot per node at a time: the row lock orders concurrent posts for the same node.
    await client.query(
      `insert into device_info_snapshots (cluster_id, server_ref, node_name, update_time, check_code, raw) values ($1, $2, $3, -1, null, '{}')
       on conflict do nothing`,
      [cluster.id, server.ref, snapshot.nodeName],
    );
    const { rows: previous } = await client.query<{ update_time: string }>(
      "select update_time from device_info_snapshots where cluster_id = $1 and server_ref = $2 for update",
      [cluster.id, server.ref],
    );
    if (Number(previous[0]!.update_time) > snapshot.updateTime) {
      warnings.push(faultProblem("stale_snapshot", { updateTime: previous[0]!.update_time }));
      return { ...base, stale: true };
    }
    const { rows: open } = await client.query<{ id: string; npu_name: string | null; switch_fault_key: string | null; code: string | null; series_key: string }>(
      `select id, raw->>'npu_name' as npu_name, raw->>'switch_fault_key' as switch_fault_key, code, series_key from fault_events
       where cluster_id = $1 and server_ref = $2 and source = 'device-info-cm' and ended_at is null`,
      [cluster.id, server.ref],
    );
    const diff = diffSnapshot(
      open.map((o) => ({ id: o.id, key: o.switch_fault_key === null ? chipFaultKey(o.npu_name ?? "", o.code) : switchFaultKey(o.switch_fault_key) })),
      snapshot,
    );
    const snapshotMs = snapshot.updateTime * 1000;
    const chipEvents: PreparedEvent[] = diff.open.map((fault, i) => {
      const die = fault.deviceId === null ? undefined : dieOf(server, fault.deviceId);
      if (!die) warn(faultProblem("not_a_die", { npu: quoted(fault.npuName), server: server.serverId }));
      const target = die
        ? { kind: "die" as const, serverId: server.serverId, deviceId: fault.deviceId }
        : { kind: "server" as const, serverId: server.serverId };
      const key = targetKey(target);
      const code = fault.code || null;
      return {
        index: i,
        id: stableEventId({ source: "device-info-cm", cluster: cluster.slug, targetKey: key, kind: fault.kind, code, beganAt: fault.faultTime }),
        clusterId: cluster.id,
        targetKind: target.kind,
        targetKey: key,
        seriesKey: seriesKey(key, { kind: fault.kind, code }),
        superPodRef: server.superPodRef,
        serverRef: server.ref,
        npuIndex: die?.npuIndex ?? null,
        deviceRef: die?.ref ?? null,
        peerDeviceRef: null,
        kind: fault.kind,
        source: "device-info-cm",
        code,
        phase: null,
        reportedLevel: fault.level ?? defaultLevelByKind[fault.kind],
        beganAt: Math.min(fault.faultTime, snapshotMs || fault.faultTime),
        endedAt: null,
        job: null,
        rankTable: null,
        rank: null,
        message: `${fault.faultType} ${fault.npuName} ${fault.code} (${fault.faultHandling || "no handling"})`,
        raw: { ...fault.raw, npu_name: fault.npuName },
      };
    });
    // 灵衢 switch faults open on the node chip they name (SwitchChipId) in the stored fabric, with the port in raw and
    // the message; a chip the fabric does not have stays on the server, flagged unmapped, never dropped. Their
    // FaultTimeAndLevelMap key (chip, port and code) is kept in raw.switch_fault_key, which later snapshots match.
    const serverKey = targetKey({ kind: "server", serverId: server.serverId });
    const switchEvents: PreparedEvent[] = diff.openSwitch.map((fault, i) => {
      const kind = "bus-device-fault" as const;
      const beganAt = Math.min(fault.faultTime, snapshotMs || fault.faultTime);
      const place = placeSwitchFault(chips, fault.chipId, fault.portId);
      if (!place.mapped) warn(faultProblem("switch_chip_unmapped", { chip: fault.chipId, server: server.serverId }));
      const key = place.mapped ? targetKey({ kind: "switch", serverId: server.serverId, chipId: fault.chipId }) : serverKey;
      const fabric = place.mapped
        ? {
            chip: place.chipKey,
            plane: place.planeKey,
            port: place.port,
            portOutOfRange: place.portOutOfRange,
            // What it takes down: the chip's plane for this server (chip), one uplink, or one NPU's/CPU's link.
            reach: switchFaultReach(
              { plane: place.planeKey, chipAlarm: fault.portId === chipAlarmPortId, assembledCode: fault.assembledCode, peerPortId: peerPortIdOf(fault.raw) },
              { planes: chips.size, uplinksToPlane: chips.get(fault.chipId)?.uplinks ?? 0 },
            ),
          }
        : { unmapped: place.reason };
      return {
        index: chipEvents.length + i,
        id: stableEventId({ source: "device-info-cm", cluster: cluster.slug, targetKey: `${key}|${fault.key}`, kind, code: fault.code, beganAt }),
        clusterId: cluster.id,
        targetKind: place.mapped ? "switch" : "server",
        targetKey: key,
        seriesKey: seriesKey(key, { kind, code: fault.code }),
        superPodRef: server.superPodRef,
        serverRef: server.ref,
        npuIndex: null,
        deviceRef: null,
        peerDeviceRef: null,
        kind,
        source: "device-info-cm",
        code: fault.code,
        phase: null,
        reportedLevel: fault.level ?? defaultLevelByKind[kind],
        beganAt,
        endedAt: null,
        job: null,
        rankTable: null,
        rank: null,
        message: `switch chip ${fault.chipId} port ${fault.portId} ${fault.assembledCode} (${fault.levelText ?? "no level"})${place.mapped ? ` on ${place.planeKey}` : ""}`,
        raw: { ...fault.raw, switch_fault_key: fault.key, fault_level: fault.levelText, node_status: snapshot.switchInfo?.nodeStatus ?? null, fabric },
      };
    });
    const events = [...chipEvents, ...switchEvents];
    await lockSeries(client, cluster.id, [...events.map((e) => e.seriesKey), ...open.map((o) => o.series_key)]);
    const outcome = await insertEvents(client, events);
    if (diff.close.length) {
      await client.query(
        `update fault_events f set ended_at = greatest(u.ended_at, f.began_at) from unnest($1::text[], $2::timestamptz[]) as u(id, ended_at)
         where f.id = u.id and f.ended_at is null`,
        [diff.close.map((c) => c.id), diff.close.map((c) => new Date(c.endedAt).toISOString())],
      );
    }
    const keys = new Set<string>(events.filter((e) => outcome.has(e.id)).map((e) => e.seriesKey));
    if (diff.close.length) {
      const { rows } = await client.query<{ series_key: string }>("select distinct series_key from fault_events where id = any($1::text[])", [diff.close.map((c) => c.id)]);
      for (const row of rows) keys.add(row.series_key);
    }
    const since = Math.min(snapshotMs, ...events.map((e) => e.beganAt));
    await reevaluateSeries(client, cluster.id, settings.escalation, [...keys], since, now);
    await client.query(
      `update device_info_snapshots set node_name = $3, update_time = $4, check_code = $5, raw = $6::jsonb, received_at = now()
       where cluster_id = $1 and server_ref = $2`,
      [cluster.id, server.ref, snapshot.nodeName, snapshot.updateTime, snapshot.checkCode, JSON.stringify(snapshot.raw)],
    );
    const opened = events.filter((e) => outcome.get(e.id) === "created");
    const changed = opened.length + diff.close.length > 0;
    if (changed) {
      await recordAudit(drizzle(client, { schema }), {
        actor,
        action: "fault_events.device_info",
        target: { type: "server", id: `${cluster.slug}/${server.serverId}` },
        details: { updateTime: snapshot.updateTime, opened: opened.length, closed: diff.close.length, checkCode: snapshot.checkCodeStatus },
      });
      const notice: FaultNotice = { clusterId: cluster.id, slug: cluster.slug, changed: opened.length + diff.close.length, at: now };
      await notify(client, faultChannel, [notice]);
    }
    return {
      ...base,
      changed,
      opened: opened.map((e) => ({ id: e.id, ...openedTarget(e), code: e.code, level: e.reportedLevel })),
      closed: diff.close.map((c) => c.id),
      unchanged: diff.unchanged.length + (events.length - opened.length),
      ...omittedWarnings(snapshot, cap),
    };
  });
}

/** Go's uint PeerPortId (absent means 0); null when the raw record carries something else. */
function peerPortIdOf(raw: Record<string, unknown>): number | null {
  const id = raw.PeerPortId ?? 0;
  return typeof id === "number" && Number.isInteger(id) ? id : null;
}

function omittedWarnings(snapshot: DeviceInfoSnapshot, cap: FindingCap): Pick<DeviceInfoResult, "omittedWarnings"> {
  const omitted = mergeOmitted(snapshot.omittedWarnings, cap.omitted());
  return omitted ? { omittedWarnings: omitted } : {};
}
