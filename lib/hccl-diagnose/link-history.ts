/**
 * An error CQE's two NICs and their link-down history (seed shared/seeds/002_*.txt, 6.3: "可以通过查询故障管理框架包含时间的
 * 关键事件记录，比如网卡linkdown等；也可以根据重传超次（日志关键字error cqe）的通信两端IP … 确认端侧网卡linkdown的历史记录").
 * The engine does not read the fault events: when a job is diagnosed, the database side looks up the network fault
 * events of the NICs `cqeNics` lists (over the job's run) and hands them to `withLinkHistory`, which adds them to the
 * error-CQE suspects as evidence: a link-down on one end names that end; none on either points at the peer process.
 */
import { summarise } from "./decide";
import type { Bilingual, DiagnosisReport, LinkDownEvent, LinkHistory, NicEnd, Suspect } from "./model";

/** Events listed per suspect (all are counted): a flapping link's hundreds of events stay a short list. */
export const EVENTS_PER_SUSPECT = 20;
/** A suspect whose NIC went down while the job ran is as sure as a diagnosis gets. */
const CONFIRMED = 0.95;

/** The distinct NICs of a report's error CQEs: those whose history to look up. */
export function cqeNics(report: DiagnosisReport): NicEnd[] {
  const nics = new Map<string, NicEnd>();
  for (const suspect of report.suspects) for (const nic of suspect.nics ?? []) if (!nics.has(nic.deviceIp)) nics.set(nic.deviceIp, nic);
  return [...nics.values()];
}

/** `2026-11-25 10:31:02Z` */
const when = (iso: string) => `${iso.slice(0, 19).replace("T", " ")}Z`;

function seconds(event: LinkDownEvent): Bilingual {
  if (event.endedAt === null) return { en: ", still open", zh: "，尚未恢复" };
  const s = Math.round((Date.parse(event.endedAt) - Date.parse(event.beganAt)) / 1000);
  return { en: `, for ${s} s`, zh: `，持续 ${s} 秒` };
}

/** `roce-link-down ×2, npu-network-fault ×1` */
function kinds(events: readonly LinkDownEvent[]): string {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.kind, (counts.get(event.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind} ×${count}`).join(", ");
}

function withHistory(suspect: Suspect & { nics: [NicEnd, NicEnd] }, history: LinkHistory): Suspect {
  const ends = suspect.nics.map((nic) => nic.deviceIp);
  const events = history.events.filter((event) => ends.includes(event.nic)).sort((a, b) => a.beganAt.localeCompare(b.beganAt));
  const unplaced = history.unplaced.filter((nic) => ends.includes(nic));
  const span = { from: when(history.from), to: when(history.to) };
  const hit = ends.map((nic) => ({ nic, events: events.filter((event) => event.nic === nic) })).filter((end) => end.events.length > 0);
  let addition: Bilingual;
  if (hit.length > 0) {
    const said = hit.map(({ nic, events: own }) => {
      const first = own[0]!;
      const duration = seconds(first);
      return {
        en: `NIC ${nic} (${first.die}): ${kinds(own)}, the first at ${when(first.beganAt)}${duration.en}`,
        zh: `网卡 ${nic}（${first.die}）：${kinds(own)}，首次于 ${when(first.beganAt)}${duration.zh}`,
      };
    });
    addition = {
      en: `The fault events from ${span.from} to ${span.to} show ${said.map((s) => s.en).join("; ")}: ${hit.length === 1 ? "the link at that NIC" : "the link between them"} is the likely cause`,
      zh: `${span.from} 至 ${span.to} 的故障事件显示 ${said.map((s) => s.zh).join("；")}：${hit.length === 1 ? "该网卡所在链路" : "两者之间的链路"}很可能是根因`,
    };
  } else if (unplaced.length === ends.length) {
    addition = {
      en: "Neither NIC is placed on a die of the inventory, so their link-down history is unknown",
      zh: "两端网卡均未匹配到资源清单中的芯片，无法查询其 linkdown 历史",
    };
  } else {
    const which = unplaced.length > 0 ? { en: `NIC ${ends.find((nic) => !unplaced.includes(nic))}`, zh: `网卡 ${ends.find((nic) => !unplaced.includes(nic))}` } : { en: "either NIC", zh: "两端网卡" };
    addition = {
      en: `The fault events record no link-down of ${which.en} from ${span.from} to ${span.to}: check whether the peer process exited first, then the switch ports between them`,
      zh: `${span.from} 至 ${span.to} 的故障事件中${which.zh}无 linkdown 记录：先检查对端进程是否已提前退出，再检查两者之间的交换机端口`,
    };
  }
  return {
    ...suspect,
    confidence: hit.length > 0 ? Math.max(suspect.confidence, CONFIRMED) : suspect.confidence,
    reason: { en: `${suspect.reason.en}. ${addition.en}`, zh: `${suspect.reason.zh}。${addition.zh}` },
    linkHistory: { from: history.from, to: history.to, events: events.slice(0, EVENTS_PER_SUSPECT), unplaced },
  };
}

/** The report with each error-CQE suspect's link-down history, re-ranked and summarised again. */
export function withLinkHistory(report: DiagnosisReport, history: LinkHistory): DiagnosisReport {
  if (!report.suspects.some((suspect) => suspect.nics !== undefined)) return report;
  const suspects = report.suspects
    .map((suspect) => (suspect.nics === undefined ? suspect : withHistory(suspect as Suspect & { nics: [NicEnd, NicEnd] }, history)))
    .sort((a, b) => b.confidence - a.confidence);
  const timedOut = report.ranks.filter((rank) => rank.status === "timeout").length;
  return { ...report, suspects, summary: summarise(report.phase, suspects, report.suspectsOmitted ?? 0, timedOut, report.ranks.length) };
}
