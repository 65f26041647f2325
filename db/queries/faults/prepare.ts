import { seriesKey } from "@/lib/faults/escalation";
import { faultProblem, zodIssueProblem, type FaultProblem } from "@/lib/faults/errors";
import { stableEventId } from "@/lib/faults/ids";
import { retentionCutoff } from "@/lib/faults/retention";
import { defaultLevelByKind, normaliseCode, targetKey, type FaultKind, type FaultTarget, type TargetKind } from "@/lib/faults/model";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { DatabaseHandle } from "../../client";
import { maxFutureSkewMs } from "../../schema/fault-event/constants";
import { parseFaultEventInput } from "../../schema/fault-event/fast-input";
import type { FaultEventInput } from "../../schema/fault-event/validation";
import { findCluster } from "../clusters";
import type { ItemResult, PreparedEnd, PreparedEvent } from "./model";
import { getFaultSettings, type FaultSettings } from "./settings";
import { dieOf, hasNpu, loadServerDies, loadTargetIndex, type TargetIndex } from "./target-index";

/* Input resolution: each item of a batch validated, its cluster and target resolved, its id derived. */

/** One item's problem; caught per item and reported against it, never thrown out of `prepareBatch`. */
class ItemError extends Error {
  constructor(readonly problem: FaultProblem) {
    super(problem.message);
  }
}

const unknownTarget = (reason: Parameters<typeof faultProblem>[0], params: Record<string, string | number>, path: string) =>
  new ItemError(faultProblem(reason, params, { code: "unknown_target", path }));

function resolveTarget(input: FaultEventInput["target"], index: TargetIndex): Omit<PreparedEvent, "index" | "id" | "clusterId" | "seriesKey" | "kind" | "source" | "code" | "phase" | "reportedLevel" | "beganAt" | "endedAt" | "job" | "rankTable" | "rank" | "message" | "raw"> {
  const server = input.server === undefined ? undefined : index.servers.get(input.server);
  if (input.server !== undefined && !server) throw unknownTarget("unknown_server", { server: input.server }, "target.server");
  let superPodRef: number | null = server?.superPodRef ?? null;
  let superPodId = server?.superPodId ?? null;
  if (input.superPod !== undefined) {
    const ref = index.superPods.get(input.superPod);
    if (ref === undefined) throw unknownTarget("unknown_super_pod", { superPod: input.superPod }, "target.superPod");
    if (server && server.superPodRef !== ref) throw unknownTarget("server_not_in_super_pod", { server: server.serverId, superPod: input.superPod }, "target.superPod");
    superPodRef = ref;
    superPodId = input.superPod;
  }
  let kind: TargetKind = server ? "server" : input.superPod !== undefined ? "super-pod" : "cluster";
  let npuIndex: number | null = input.npu ?? null;
  let deviceRef: number | null = null;
  let peerDeviceRef: number | null = null;
  const target: FaultTarget = { kind, superPodId, serverId: server?.serverId ?? null };
  if (server && input.die !== undefined) {
    const die = dieOf(server, input.die);
    if (!die) throw unknownTarget("unknown_die", { server: server.serverId, die: input.die }, "target.die");
    deviceRef = die.ref;
    npuIndex = die.npuIndex;
    kind = "die";
    target.deviceId = input.die;
  } else if (server && input.npu !== undefined) {
    if (!hasNpu(server, input.npu)) throw unknownTarget("unknown_npu", { server: server.serverId, npu: input.npu }, "target.npu");
    kind = "npu";
    target.npuIndex = input.npu;
  }
  if (input.peer) {
    const peerServer = index.servers.get(input.peer.server);
    const peer = peerServer ? dieOf(peerServer, input.peer.die) : undefined;
    if (!peer) throw unknownTarget("unknown_peer", { server: input.peer.server, die: input.peer.die }, "target.peer");
    peerDeviceRef = peer.ref;
    kind = "link";
    target.peer = { serverId: input.peer.server, deviceId: input.peer.die };
  }
  target.kind = kind;
  return { targetKind: kind, targetKey: targetKey(target), superPodRef, serverRef: server?.ref ?? null, npuIndex, deviceRef, peerDeviceRef };
}

interface ClusterContext {
  cluster: ClusterHeader;
  index: TargetIndex;
  settings: FaultSettings;
}

async function clusterContexts(handle: DatabaseHandle, slugs: Iterable<string>): Promise<Map<string, ClusterContext | null>> {
  const contexts = new Map<string, ClusterContext | null>();
  for (const slug of slugs) {
    const cluster = await findCluster(handle.db, slug);
    contexts.set(slug, cluster ? { cluster, index: await loadTargetIndex(handle.pool, cluster), settings: await getFaultSettings(handle.pool, cluster.id) } : null);
  }
  return contexts;
}

/**
 * A begin older than the cluster's retention: it ended before the cutoff (retention would take it at once), or it
 * is open and began before it (a re-sent begin of a fault long gone would show as live). Either way it was deleted
 * or archived already, or would be: it is refused rather than revived. Ends are taken whatever their age: they only
 * close stored events.
 */
function refusePastRetention(input: FaultEventInput, settings: FaultSettings, now: number): void {
  const cutoff = retentionCutoff({ days: settings.retentionDays, mode: settings.retentionMode }, now);
  const latest = input.endedAt ?? input.beganAt!;
  if (latest >= cutoff) return;
  const params = { days: settings.retentionDays, cutoff: new Date(cutoff).toISOString() };
  throw new ItemError(faultProblem("past_retention", params, { path: input.endedAt == null ? "beganAt" : "endedAt" }));
}

/** Validates and resolves a batch; every problem is reported against its item. */
export async function prepareBatch(
  handle: DatabaseHandle,
  items: unknown[],
  now = Date.now(),
): Promise<{ events: PreparedEvent[]; ends: PreparedEnd[]; results: ItemResult[]; contexts: Map<string, ClusterContext | null> }> {
  const results: ItemResult[] = [];
  const parsed: (FaultEventInput | null)[] = items.map((item, index) => {
    const result = parseFaultEventInput(item);
    if (result.success) return result.data;
    results.push({ index, status: "invalid", error: zodIssueProblem(result.error.issues[0]!) });
    return null;
  });
  const contexts = await clusterContexts(handle, new Set(parsed.flatMap((p) => (p ? [p.cluster] : []))));
  // The dies of the servers the batch names, for the events on a die, an NPU or a link.
  for (const [slug, context] of contexts) {
    if (!context) continue;
    const named = parsed.flatMap((p) => (p?.cluster === slug ? [p.target.server, p.target.peer?.server] : []));
    await loadServerDies(handle.pool, named.map((server) => (server === undefined ? undefined : context.index.servers.get(server))));
  }
  const events: PreparedEvent[] = [];
  const ends: PreparedEnd[] = [];
  parsed.forEach((input, index) => {
    if (!input) return;
    try {
      const context = contexts.get(input.cluster);
      if (!context) throw new ItemError(faultProblem("unknown_cluster", { cluster: input.cluster }, { path: "cluster" }));
      const target = resolveTarget(input.target, context.index);
      const ending = input.action === "end" || input.kind === "roce-link-up";
      const kind: FaultKind = input.kind === "roce-link-up" ? "roce-link-down" : input.kind;
      const code = normaliseCode(input.code) ?? (input.kind === "roce-link-up" || input.kind === "roce-link-down" ? "81078603" : null);
      const series = seriesKey(target.targetKey, { kind, code });
      const latest = Math.max(input.beganAt ?? 0, input.endedAt ?? 0);
      if (latest > now + maxFutureSkewMs) throw new ItemError(faultProblem("future_time", {}, { path: "beganAt" }));
      if (!ending) refusePastRetention(input, context.settings, now);
      if (ending) {
        ends.push({ index, clusterId: context.cluster.id, seriesKey: series, endedAt: (input.endedAt ?? input.beganAt)! });
        return;
      }
      const beganAt = input.beganAt!;
      events.push({
        index,
        id: stableEventId({ sourceId: input.id, source: input.source, cluster: context.cluster.slug, targetKey: target.targetKey, kind, code, beganAt }),
        clusterId: context.cluster.id,
        ...target,
        seriesKey: series,
        kind,
        source: input.source,
        code,
        phase: input.phase ?? null,
        reportedLevel: input.level ?? defaultLevelByKind[kind],
        beganAt,
        endedAt: input.endedAt ?? null,
        job: input.job ?? null,
        rankTable: input.rankTable ?? null,
        rank: input.rank ?? null,
        message: input.message ?? null,
        raw: input.raw === undefined ? (items[index] as object) : input.raw,
      });
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      results.push({ index, status: "invalid", error: error.problem });
    }
  });
  // Two items of one batch with the same id: the second is a re-send of the first.
  return { events, ends, results, contexts };
}
