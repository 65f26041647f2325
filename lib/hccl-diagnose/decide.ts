/**
 * From what each rank said to the phase and the suspects, by the seed's rules (shared/seeds/002_*.txt): the phase is
 * the earliest stage with a failure; in initialisation the suspects are the ranks that never reached the root rank; in
 * loading and execution the ranks that did NOT time out, or, when all did, TLS / parameter-plane connectivity; for an
 * error CQE the NICs at both ends; for configuration errors the rank table's own findings.
 */
import { NEXT_STEPS, PHASE_NAMES } from "./advice";
import type { DiagnosisPhase, DiagnosisReport, Evidence, RankStatus, RankSummary, Suspect } from "./model";
import { firstEvidence, hasKind, OWN_ERRORS, placeOf, TIMEOUTS, type Context, type DecideInput, type Observation, type RankFacts } from "./observations";
import type { FindingKind } from "./patterns";
import { suspectsForConfig, suspectsForPorts, suspectsForSilentRanks, suspectsWhenAllTimedOut } from "./suspects";

/** Suspects listed at most; the summary says how many more. */
const MAX_SUSPECTS = 50;

function statusOf(facts: RankFacts | undefined): RankStatus {
  if (facts === undefined || (facts.files.length === 0 && facts.observations.length === 0)) return "unknown";
  if (hasKind(facts, TIMEOUTS)) return "timeout";
  if (hasKind(facts, OWN_ERRORS)) return "error";
  return "ok";
}

function phaseOf(kinds: Set<FindingKind>): DiagnosisPhase {
  if (kinds.has("config")) return "config";
  if (kinds.has("port_in_use")) return "port_in_use";
  if (["root_timeout", "root_connected", "agents_missing", "agent_timeout", "init_failed"].some((kind) => kinds.has(kind as FindingKind))) return "init";
  if (kinds.has("link_timeout") || kinds.has("consistency")) return "load";
  if (kinds.has("notify_timeout") || kinds.has("error_cqe")) return "execute";
  return "unknown";
}

/** The ranks the job should have: the rank table's, else the communicator's size, else every rank seen or named. */
function expectedRanks(input: DecideInput, all: Observation[]): number[] {
  if (input.table && input.table.ranks.size > 0) return [...input.table.ranks.keys()].sort((a, b) => a - b);
  const ranks = new Set(input.ranks.keys());
  // Without a table or a communicator size, a rank only named by others is not known to be silent: only the ranks
  // whose logs we have are judged, and the named ones are suspects by reference.
  if (input.rankSize > 0) {
    for (let rank = 0; rank < input.rankSize; rank++) ranks.add(rank);
    for (const { finding } of all) for (const rank of finding.ranks ?? []) ranks.add(rank);
  }
  return [...ranks].sort((a, b) => a - b);
}

export function decide(input: DecideInput): DiagnosisReport {
  const all: Observation[] = [...input.unattributed];
  for (const facts of input.ranks.values()) all.push(...facts.observations);
  const kinds = new Set(all.map((observation) => observation.finding.kind));
  const phase = phaseOf(kinds);
  const expected = expectedRanks(input, all);
  const context: Context = { ...input, all, expected, phase };

  let suspects: Suspect[];
  switch (phase) {
    case "config":
      suspects = suspectsForConfig(context);
      break;
    case "port_in_use":
      suspects = suspectsForPorts(context);
      break;
    case "init":
      suspects = suspectsForInit(context);
      break;
    case "load":
    case "execute": {
      const silent = expected.filter((rank) => !hasKind(input.ranks.get(rank), TIMEOUTS));
      suspects = silent.length > 0 && silent.length < expected.length ? suspectsForSilentRanks(context, silent) : suspectsWhenAllTimedOut(context);
      break;
    }
    default:
      suspects = suspectsForSilentRanks(context, expected.filter((rank) => hasKind(input.ranks.get(rank), OWN_ERRORS)));
  }
  if (phase !== "config" && input.table && input.table.errors.length > 0) suspects.push(...suspectsForConfig({ ...context, all: [] }).map((suspect) => ({ ...suspect, confidence: 0.3 })));
  suspects.sort((a, b) => b.confidence - a.confidence);
  const more = Math.max(0, suspects.length - MAX_SUSPECTS);
  suspects = suspects.slice(0, MAX_SUSPECTS);

  const ranks: RankSummary[] = expected.map((rank) => {
    const facts = input.ranks.get(rank);
    const table = input.table?.ranks.get(rank);
    return {
      rank,
      deviceId: facts?.deviceId ?? table?.deviceId,
      hostIp: table?.hostIp ?? facts?.hostIp,
      deviceIp: facts?.deviceIp ?? table?.deviceIp,
      status: statusOf(facts),
      files: facts?.files ?? [],
    };
  });
  const timedOut = ranks.filter((rank) => rank.status === "timeout").length;
  return {
    phase,
    summary: summarise(phase, suspects, more, timedOut, expected.length),
    suspects,
    ...(more > 0 ? { suspectsOmitted: more } : {}),
    ranks,
    nextSteps: NEXT_STEPS[phase],
    stats: input.stats,
  };
}

function describe(suspect: Suspect): { en: string; zh: string } {
  if (suspect.rank !== undefined) return { en: `rank ${suspect.rank}`, zh: `Rank ${suspect.rank}` };
  if (suspect.kind === "port" && suspect.port !== undefined) return { en: `port ${suspect.port}`, zh: `端口 ${suspect.port}` };
  if (suspect.deviceIp) return { en: `NIC ${suspect.deviceIp}`, zh: `网卡 ${suspect.deviceIp}` };
  if (suspect.serverId || suspect.hostIp) return { en: `server ${suspect.serverId ?? suspect.hostIp}`, zh: `服务器 ${suspect.serverId ?? suspect.hostIp}` };
  if (suspect.kind === "config") return { en: "the configuration", zh: "配置" };
  return { en: suspect.reason.en, zh: suspect.reason.zh };
}

export function summarise(phase: DiagnosisPhase, suspects: Suspect[], more: number, timedOut: number, expected: number): { en: string; zh: string } {
  const name = PHASE_NAMES[phase];
  const head = suspects[0];
  const counts = expected > 0 ? { en: ` ${timedOut} of ${expected} ranks reported a timeout.`, zh: `${expected} 个 Rank 中有 ${timedOut} 个上报超时。` } : { en: "", zh: "" };
  if (head === undefined) {
    return { en: `Phase: ${name.en}. No suspect could be named from these logs.${counts.en}`, zh: `阶段：${name.zh}。无法从这些日志中确定嫌疑点。${counts.zh}` };
  }
  const what = describe(head);
  const others = suspects.length - 1 + more;
  const rest = others > 0 ? { en: ` (and ${others} more suspect${others === 1 ? "" : "s"})`, zh: `（另有 ${others} 个嫌疑点）` } : { en: "", zh: "" };
  return {
    en: `Phase: ${name.en}. Most likely culprit: ${what.en}${rest.en}: ${head.reason.en}.${counts.en}`,
    zh: `阶段：${name.zh}。最可能的故障点：${what.zh}${rest.zh}：${head.reason.zh}。${counts.zh}`,
  };
}

/** Initialisation: the ranks that never reached the root rank, seen from the root (connected list), from the agents
 *  ("Failed to connect agent[…]") and from the ranks themselves (connect to server failed). */
function suspectsForInit(context: Context): Suspect[] {
  const { all, expected, ranks } = context;
  const connected = new Set<number>();
  const missing = new Set<number>();
  const rootEvidence: Evidence[] = [];
  for (const { finding, evidence } of all) {
    if (finding.kind === "root_connected") {
      for (const rank of finding.ranks ?? []) connected.add(rank);
      if (rootEvidence.length < 2) rootEvidence.push(evidence);
    } else if (finding.kind === "root_timeout" && rootEvidence.length < 2) rootEvidence.push(evidence);
    else if (finding.kind === "agents_missing") for (const rank of finding.ranks ?? []) missing.add(rank);
  }
  const root = context.root ?? 0;
  if (connected.size > 0) for (const rank of expected) if (rank !== root && !connected.has(rank)) missing.add(rank);
  const unreachable = expected.filter((rank) => hasKind(ranks.get(rank), "agent_timeout"));
  if (missing.size === 0) {
    for (const rank of unreachable) missing.add(rank);
    const logged = expected.filter((rank) => ranks.has(rank));
    if (logged.length > 0) for (const rank of expected) if (!ranks.has(rank)) missing.add(rank);
  }
  const suspects: Suspect[] = [];
  const others = expected.length - 1;
  if (connected.size === 0 && others > 0 && unreachable.length >= Math.max(2, Math.ceil(others / 2))) {
    const facts = ranks.get(root);
    suspects.push({
      kind: "rank",
      rank: root,
      ...placeOf(context, root),
      confidence: facts === undefined ? 0.75 : 0.6,
      reason: {
        en: `${unreachable.length} ranks could not reach the root rank ${root}: check that its process is running and listening, its host NIC (HCCL_IF_IP / HCCL_SOCKET_IFNAME) and port`,
        zh: `${unreachable.length} 个 Rank 无法连接 Root Rank ${root}：检查其进程是否运行并监听、其 Host 网卡（HCCL_IF_IP / HCCL_SOCKET_IFNAME）与端口`,
      },
      evidence: unreachable.slice(0, 3).flatMap((rank) => firstEvidence(ranks.get(rank), "agent_timeout")),
    });
  }
  for (const rank of [...missing].sort((a, b) => a - b)) {
    const facts = ranks.get(rank);
    const own = firstEvidence(facts, "other_error");
    const connect = firstEvidence(facts, "agent_timeout");
    let confidence: number;
    let reason: { en: string; zh: string };
    if (own.length > 0) {
      confidence = 0.85;
      reason = { en: "never reached the root rank; its log has an error of its own first", zh: "未与 Root Rank 建链；其日志中先有自身报错" };
    } else if (connect.length > 0) {
      confidence = 0.8;
      reason = { en: "could not connect to the root rank over the host NIC (host network, NIC choice or port)", zh: "无法通过 Host 网卡连接 Root Rank（Host 网络、网卡选择或端口问题）" };
    } else if (facts === undefined) {
      confidence = 0.7;
      reason = { en: "never connected to the root rank and left no logs: its process may have crashed or hung before initialisation", zh: "未与 Root Rank 建链且无日志：其进程可能在初始化前已崩溃或卡住" };
    } else {
      confidence = 0.75;
      reason = { en: "never connected to the root rank and logged no attempt: it hung or failed before initialisation", zh: "未与 Root Rank 建链且无建链记录：在初始化前卡住或失败" };
    }
    suspects.push({ kind: "rank", rank, ...placeOf(context, rank), confidence, reason, evidence: [...own, ...connect, ...rootEvidence].slice(0, 3) });
  }
  return groupByServer(context, suspects);
}

/** When every rank of one server is a suspect, the server (its host network) is the better answer. */
function groupByServer(context: Context, suspects: Suspect[]): Suspect[] {
  const byServer = new Map<string, Suspect[]>();
  for (const suspect of suspects) {
    const server = suspect.serverId ?? suspect.hostIp;
    if (server === undefined || suspect.rank === undefined) continue;
    byServer.set(server, [...(byServer.get(server) ?? []), suspect]);
  }
  const extra: Suspect[] = [];
  for (const [server, members] of byServer) {
    const total = context.expected.filter((rank) => {
      const place = placeOf(context, rank);
      return (place.serverId ?? place.hostIp) === server;
    }).length;
    if (members.length < 2 || members.length < total) continue;
    extra.push({
      kind: "link",
      serverId: members[0]?.serverId,
      hostIp: members[0]?.hostIp,
      confidence: Math.min(0.9, Math.max(...members.map((member) => member.confidence)) + 0.05),
      reason: { en: `every rank of server ${server} failed the same way: check that server's host network and processes`, zh: `服务器 ${server} 的所有 Rank 均以相同方式失败：检查该服务器的 Host 网络与进程` },
      evidence: members.flatMap((member) => member.evidence).slice(0, 3),
    });
  }
  return [...extra, ...suspects];
}

