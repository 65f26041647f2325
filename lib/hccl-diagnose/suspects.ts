/**
 * Suspects per rule of the seed (shared/seeds/002_*.txt): configuration and port findings name themselves; in loading
 * and execution "the rank that did not report a timeout is usually the culprit" (sections 5.3, 6.3), and when every rank
 * timed out, TLS consistency and parameter-plane connectivity (5.3) or the NICs at both ends of an error CQE (6.3).
 */
import { firstEvidence, OWN_ERRORS, placeOf, type Context, type Observation } from "./observations";
import type { Evidence, Suspect } from "./model";


function rankOf(context: Context, observation: Observation): number | undefined {
  if (observation.speakerRank !== undefined) return observation.speakerRank;
  for (const facts of context.ranks.values()) if (facts.observations.includes(observation)) return facts.rank;
  return undefined;
}

/** A log line without its prefix: a plog's `[ERROR] MODULE(pid,proc):time [file:line]tid `, else up to the first `] `. */
function messageOf(text: string): string {
  const plog = /^\[[A-Z]+\] [A-Z_0-9]+\(\d+,[^)]*\):\S+ \[[^\]]+\]\s*(?:\[\d+\]|\d+ )?\s*/.exec(text);
  return (plog ? text.slice(plog[0].length) : text.replace(/^.*?\] /, "")).trim();
}

/** Configuration: each distinct error (code, or the line's text for uncoded checks) once, with the ranks that hit it,
 *  then the rank table's own error findings. */
export function suspectsForConfig(context: Context): Suspect[] {
  const groups = new Map<string, { ranks: Set<number>; evidence: Evidence[]; code?: string }>();
  for (const facts of context.ranks.values()) {
    for (const observation of facts.observations) collect(observation, facts.rank);
  }
  for (const observation of context.unattributed) collect(observation, undefined);
  function collect(observation: Observation, rank: number | undefined): void {
    if (observation.finding.kind !== "config") return;
    const key = observation.finding.code ?? observation.evidence.text.replace(/^.*?\] /, "").replace(/[\d.:-]+/g, "#").slice(0, 120);
    const group = groups.get(key) ?? { ranks: new Set<number>(), evidence: [], code: observation.finding.code };
    groups.set(key, group);
    const speaker = observation.speakerRank ?? rank;
    if (speaker !== undefined) group.ranks.add(speaker);
    if (group.evidence.length < 3) group.evidence.push(observation.evidence);
  }
  const suspects: Suspect[] = [];
  for (const group of groups.values()) {
    const ranks = [...group.ranks].sort((a, b) => a - b);
    const single = ranks.length === 1 ? ranks[0] : undefined;
    const said = messageOf(group.evidence[0]?.text ?? "").slice(0, 200);
    const label = group.code ? `${group.code} ` : "";
    const who = ranks.length > 1 ? { en: ` on ${ranks.length} ranks (${ranks.slice(0, 8).join(", ")}${ranks.length > 8 ? ", …" : ""})`, zh: `，涉及 ${ranks.length} 个 Rank（${ranks.slice(0, 8).join("、")}${ranks.length > 8 ? "…" : ""}）` } : { en: "", zh: "" };
    suspects.push({
      kind: "config",
      ...(single === undefined ? {} : { rank: single, ...placeOf(context, single) }),
      confidence: 0.85,
      reason: { en: `configuration error ${label}reported${who.en}: ${said}`, zh: `配置错误 ${label}${who.zh}：${said}` },
      evidence: group.evidence,
    });
  }
  for (const { en, zh } of context.table?.errors.slice(0, 10) ?? []) {
    suspects.push({
      kind: "config",
      confidence: 0.9,
      reason: { en: `rank table ${en.code} at ${en.path || "/"}: ${en.message}`, zh: `RankTable ${zh.code}（${zh.path || "/"}）：${zh.message}` },
      evidence: [{ file: "rank table", line: en.line ?? 0, text: `${en.code} ${en.path}` }],
    });
  }
  return suspects;
}

/** Ports in use: each distinct address and port once. */
export function suspectsForPorts(context: Context): Suspect[] {
  const seen = new Map<string, Suspect>();
  for (const observation of context.all) {
    const { finding, evidence } = observation;
    if (finding.kind !== "port_in_use") continue;
    const key = finding.code === "EJ0001" ? `EJ0001:${rankOf(context, observation) ?? "?"}` : `${finding.localIp ?? "?"}:${finding.port ?? "?"}`;
    const existing = seen.get(key);
    if (existing) {
      if (existing.evidence.length < 3) existing.evidence.push(evidence);
      continue;
    }
    const rank = rankOf(context, observation);
    const host = finding.code === "host" || finding.code === "EI0019";
    const where = finding.port === undefined ? { en: "a port", zh: "端口" } : { en: `port ${finding.port}${finding.localIp ? ` on ${finding.localIp}` : ""}`, zh: `${finding.localIp ? `${finding.localIp} 上的` : ""}端口 ${finding.port}` };
    const side = host ? { en: "host (communicator negotiation)", zh: "Host 侧（通信域协商）" } : { en: "NPU (parameter plane)", zh: "NPU 侧（参数面）" };
    if (finding.code === "EJ0001") {
      seen.set(key, {
        kind: "port",
        ...(rank === undefined ? {} : { rank, ...placeOf(context, rank) }),
        confidence: 0.85,
        reason: { en: "HCCP could not start on this NPU: the previous training process is probably still running; wait about 10 s after it exits (or kill it) and start again", zh: "该 NPU 上 HCCP 进程初始化失败：上一次训练进程可能仍在运行；待其退出（或将其结束）约 10 秒后再启动" },
        evidence: [evidence],
      });
      continue;
    }
    seen.set(key, {
      kind: "port",
      ...(rank === undefined ? {} : { rank, ...placeOf(context, rank) }),
      ...(finding.port === undefined ? {} : { port: finding.port }),
      ...(finding.localIp === undefined ? {} : host ? { hostIp: finding.localIp } : { deviceIp: finding.localIp }),
      confidence: 0.9,
      reason: { en: `${where.en} is already in use on the ${side.en} side: another process holds it`, zh: `${side.zh}${where.zh}已被其他进程占用` },
      evidence: [evidence],
    });
  }
  return [...seen.values()];
}

/** How often each rank is named as the peer others waited for. */
function references(context: Context): Map<number, { count: number; evidence: Evidence[] }> {
  const counts = new Map<number, { count: number; evidence: Evidence[] }>();
  for (const { finding, evidence } of context.all) {
    let rank = finding.remoteRank;
    if (rank === undefined && finding.remoteIp !== undefined) rank = context.table?.byDeviceIp.get(finding.remoteIp);
    if (rank === undefined) continue;
    const entry = counts.get(rank) ?? { count: 0, evidence: [] };
    entry.count++;
    if (entry.evidence.length < 2) entry.evidence.push(evidence);
    counts.set(rank, entry);
  }
  return counts;
}

/** Loading / execution with some ranks silent: those ranks, the more certain the fewer they are. */
export function suspectsForSilentRanks(context: Context, silent: number[]): Suspect[] {
  const suspects: Suspect[] = [...cqeSuspects(context)];
  if (silent.length === 0) return suspects;
  const referenced = references(context);
  const share = silent.length / Math.max(1, context.expected.length);
  const base = silent.length === 1 ? 0.9 : silent.length <= 4 ? 0.75 : share < 0.25 ? 0.55 : 0.3;
  // A rank without logs is only as suspect as the logs are complete: with half the job's logs missing, silence means little.
  const logged = context.expected.filter((rank) => (context.ranks.get(rank)?.files.length ?? 0) > 0).length / Math.max(1, context.expected.length);
  const withoutLogs = logged >= 0.9 ? 1 : logged >= 0.5 ? 0.8 : 0.4;
  const timeoutWord = context.phase === "execute" ? { en: "a notify-wait timeout", zh: "Notify Wait 超时" } : { en: "a link set-up timeout", zh: "建链超时" };
  for (const rank of silent) {
    const facts = context.ranks.get(rank);
    const own = firstEvidence(facts, OWN_ERRORS, 2);
    const waitedFor = referenced.get(rank);
    let reason: { en: string; zh: string };
    if (own.length > 0) reason = { en: `did not report ${timeoutWord.en}; it failed first with an error of its own`, zh: `未上报${timeoutWord.zh}，且先出现自身报错` };
    else if (facts !== undefined && facts.files.length > 0) reason = { en: `did not report ${timeoutWord.en} and logged no error: it may be stuck (read its stack) or slow`, zh: `未上报${timeoutWord.zh}且无报错：可能卡住（分析其堆栈）或执行过慢` };
    else reason = { en: `did not report ${timeoutWord.en} and left no logs: its process may have exited, crashed or never reached the operator`, zh: `未上报${timeoutWord.zh}且无日志：其进程可能已退出、崩溃或未执行到该算子` };
    if (waitedFor) reason = { en: `${reason.en}; ${waitedFor.count} timeout line(s) name it as the peer`, zh: `${reason.zh}；有 ${waitedFor.count} 条超时日志指向它` };
    suspects.push({
      kind: "rank",
      rank,
      ...placeOf(context, rank),
      confidence: Math.round(Math.min(0.95, (base + (waitedFor ? 0.05 : 0) + (own.length > 0 ? 0.05 : 0)) * (facts === undefined || facts.files.length === 0 ? withoutLogs : 1)) * 100) / 100,
      reason,
      evidence: [...own, ...(waitedFor?.evidence ?? [])].slice(0, 3),
    });
  }
  return suspects;
}

/** Every rank timed out (or no rank is known, as in a single pasted excerpt). */
export function suspectsWhenAllTimedOut(context: Context): Suspect[] {
  const suspects = cqeSuspects(context);
  const tls = new Set(context.all.map((observation) => observation.finding.tls).filter((value): value is string => value !== undefined && value !== "UNKNOWN"));
  const tlsEvidence = context.all.filter((observation) => observation.finding.tls !== undefined).slice(0, 3).map((observation) => observation.evidence);
  const conflicts = context.all.filter((observation) => observation.finding.kind === "consistency");
  if (conflicts.length > 0) {
    suspects.push({
      kind: "config",
      confidence: 0.7,
      reason: { en: "the ranks disagree on what they run (operator parameters, or HCCL found no abnormal period behind the timeouts): compare the scripts, versions and data sharding of every rank", zh: "各 Rank 执行的内容不一致（算子参数不一致，或 HCCL 未发现超时背后的异常时段）：比对各 Rank 的脚本、版本与数据切分" },
      evidence: conflicts.slice(0, 3).map((observation) => observation.evidence),
    });
  }
  if (context.phase === "load") {
    if (tls.size > 1) {
      suspects.push({ kind: "config", confidence: 0.85, reason: { en: `the TLS switch differs between ranks (${[...tls].join(" / ")})`, zh: `各 Rank 的 TLS 开关不一致（${[...tls].join(" / ")}）` }, evidence: tlsEvidence });
    } else if (context.ranks.size > 1) {
      suspects.push({ kind: "config", confidence: 0.5, reason: { en: "every rank timed out setting up links: check the TLS switch and certificates are the same on every NPU", zh: "全部 Rank 建链超时：检查所有 NPU 的 TLS 开关与证书是否一致" }, evidence: tlsEvidence });
      suspects.push({ kind: "link", confidence: 0.4, reason: { en: "every rank timed out setting up links: check parameter-plane connectivity (hccn_tool ping between device IPs)", zh: "全部 Rank 建链超时：检查参数面网络连通性（device IP 间 hccn_tool ping）" }, evidence: [] });
    }
  }
  if (context.phase === "execute" && suspects.length === 0) {
    const tags = new Set(context.all.map((observation) => observation.finding.tag).filter((tag): tag is string => tag !== undefined).map((tag) => tag.split("_")[0]));
    if (tags.size > 1) {
      suspects.push({ kind: "config", confidence: 0.6, reason: { en: `ranks timed out in different operators (${[...tags].slice(0, 4).join(", ")}): they called different collectives (inconsistent data sharding?)`, zh: `各 Rank 超时于不同算子（${[...tags].slice(0, 4).join("、")}）：调用了不同的通信算子（数据集切分不一致？）` }, evidence: context.all.filter((observation) => observation.finding.tag !== undefined).slice(0, 3).map((observation) => observation.evidence) });
    } else if (context.ranks.size > 1) {
      suspects.push({ kind: "link", confidence: 0.4, reason: { en: "every rank timed out and no error CQE was logged: check the parameter-plane network and that all ranks run the same operators", zh: "全部 Rank 超时且无 error cqe：检查参数面网络，并确认各 Rank 执行的算子一致" }, evidence: [] });
    }
  }
  // The peers the timeouts point at: the cascade usually leads back to them (a pasted excerpt names only those).
  const referenced = [...references(context)].sort((a, b) => b[1].count - a[1].count).slice(0, 3);
  const lone = context.ranks.size <= 1;
  for (const [rank, { count, evidence }] of referenced) {
    if (suspects.some((suspect) => suspect.rank === rank)) continue;
    suspects.push({
      kind: "rank",
      rank,
      ...placeOf(context, rank),
      confidence: lone ? 0.5 : 0.3,
      reason: { en: `${count} timeout line(s) name rank ${rank} as the peer that did not answer: read its logs`, zh: `有 ${count} 条超时日志指向 Rank ${rank} 未响应：请查看其日志` },
      evidence,
    });
  }
  return suspects;
}

/** Error CQEs: one suspect per NIC pair, both ends named, matched to ranks by the rank table when given. */
function cqeSuspects(context: Context): Suspect[] {
  const pairs = new Map<string, Suspect>();
  const bare: Evidence[] = [];
  for (const observation of context.all) {
    const { finding, evidence } = observation;
    if (finding.kind !== "error_cqe") continue;
    if (finding.localIp === undefined || finding.remoteIp === undefined) {
      if (bare.length < 3) bare.push(evidence);
      continue;
    }
    const key = [finding.localIp, finding.remoteIp].sort().join("|");
    const existing = pairs.get(key);
    if (existing) {
      if (existing.evidence.length < 3) existing.evidence.push(evidence);
      continue;
    }
    const rank = context.table?.byDeviceIp.get(finding.localIp) ?? rankOf(context, observation);
    const peerRank = context.table?.byDeviceIp.get(finding.remoteIp);
    pairs.set(key, {
      kind: "link",
      ...(rank === undefined ? {} : { rank }),
      ...(finding.localDeviceId === undefined ? {} : { deviceId: finding.localDeviceId }),
      ...(finding.localServer ? { hostIp: finding.localServer } : {}),
      deviceIp: finding.localIp,
      peer: { ...(peerRank === undefined ? {} : { rank: peerRank }), deviceIp: finding.remoteIp },
      nics: [
        { deviceIp: finding.localIp, ...(finding.localServer ? { server: finding.localServer } : {}), ...(finding.localDeviceId === undefined ? {} : { deviceId: finding.localDeviceId }), ...(rank === undefined ? {} : { rank }) },
        { deviceIp: finding.remoteIp, ...(finding.remoteServer ? { server: finding.remoteServer } : {}), ...(finding.remoteDeviceId === undefined ? {} : { deviceId: finding.remoteDeviceId }), ...(peerRank === undefined ? {} : { rank: peerRank }) },
      ],
      confidence: 0.85,
      reason: {
        en: `RDMA retransmissions exhausted (error CQE) between NIC ${finding.localIp} (server ${finding.localServer ?? "?"}, device ${finding.localDeviceId ?? "?"}) and NIC ${finding.remoteIp} (server ${finding.remoteServer ?? "?"}, device ${finding.remoteDeviceId ?? "?"}): check both NICs' link-down history, or whether the peer process exited first`,
        zh: `网卡 ${finding.localIp}（服务器 ${finding.localServer ?? "?"}，设备 ${finding.localDeviceId ?? "?"}）与网卡 ${finding.remoteIp}（服务器 ${finding.remoteServer ?? "?"}，设备 ${finding.remoteDeviceId ?? "?"}）之间 RoCE 重传超次（error cqe）：检查两端网卡 linkdown 历史，或对端进程是否先退出`,
      },
      evidence: [evidence],
    });
  }
  const suspects = [...pairs.values()];
  if (suspects.length === 0 && bare.length > 0) {
    suspects.push({ kind: "nic", confidence: 0.6, reason: { en: "an error CQE (RDMA retransmissions exhausted) was logged without its NIC pair: find the EI0013 or heartbeat line naming both ends", zh: "日志出现 error cqe（RoCE 重传超次）但未给出两端网卡：查找 EI0013 或心跳日志中的两端信息" }, evidence: bare });
  }
  return suspects;
}
