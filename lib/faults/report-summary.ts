import type { Delta, FaultReport } from "./report";

/**
 * The report's summary in the reader's language ("availability 99.2 % (−0.3 pts), 3 servers account for 60 % of
 * the servers' fault time …"): pure, with the duration format handed in (the console's "3 min 20 s" / "3 分 20 秒").
 */
export type SummaryLocale = "en" | "zh-CN";

/** The fewest most-affected servers whose fault time reaches half of all servers' (at most 5), and their share. */
export function serverConcentration(servers: readonly { faultMs: number }[], totalMs: number): { servers: number; share: number } | null {
  if (totalMs <= 0 || servers.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < Math.min(5, servers.length); i++) {
    sum += servers[i]!.faultMs;
    if (sum / totalMs >= 0.5) return { servers: i + 1, share: sum / totalMs };
  }
  const n = Math.min(3, servers.length);
  return { servers: n, share: servers.slice(0, n).reduce((s, x) => s + x.faultMs, 0) / totalMs };
}

const minus = "\u2212";

/**
 * A change with its sign (+, − or ±), `digits` after the point; a change too small to show at that precision is
 * "<0.01" with its sign rather than a misleading "−0.00".
 */
export function signedNumber(n: number, digits: number, format: (n: number, digits: number) => string): string {
  const smallest = 10 ** -digits;
  const sign = n > 0 ? "+" : n < 0 ? minus : "±";
  if (n !== 0 && Math.abs(n) < smallest / 2) return `${sign}<${format(smallest, digits)}`;
  return sign + format(Math.abs(n), digits);
}

export function reportSummary(report: FaultReport, locale: SummaryLocale, duration: (ms: number) => string): string {
  const zh = locale === "zh-CN";
  const number = (n: number, digits = 0) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n);
  const signed = (n: number, digits: number) => signedNumber(n, digits, number);
  const pct = (d: Delta | null | undefined) => (d?.ratio === null || d?.ratio === undefined ? null : `${signed(d.ratio * 100, 0)} %`);
  const { current, deltas } = report;
  const parts: string[] = [];

  const availability = `${number(current.overallAvailability * 100, 2)} %`;
  const pts = deltas ? signed(deltas.availabilityPts.change, 2) : null;
  parts.push(zh ? `可用率 ${availability}${pts ? `（较上期 ${pts} 个百分点）` : ""}` : `availability ${availability}${pts ? ` (${pts} pts vs the previous period)` : ""}`);

  const events = number(current.events);
  const eventsChange = pct(deltas?.events);
  parts.push(zh ? `故障事件 ${events} 个${eventsChange ? `（${eventsChange}）` : ""}` : `${events} fault events${eventsChange ? ` (${eventsChange})` : ""}`);

  if (current.mttrMs !== null) {
    const mttrChange = pct(deltas?.mttrMs);
    parts.push(zh ? `平均恢复时间 ${duration(current.mttrMs)}${mttrChange ? `（${mttrChange}）` : ""}` : `MTTR ${duration(current.mttrMs)}${mttrChange ? ` (${mttrChange})` : ""}`);
  }

  const lost = number(current.lostDieMs / 3_600_000, 1);
  const lostChange = pct(deltas?.lostDieMs);
  parts.push(zh ? `损失 ${lost} Die·小时${lostChange ? `（${lostChange}）` : ""}` : `${lost} die-hours lost${lostChange ? ` (${lostChange})` : ""}`);

  const concentration = serverConcentration(report.topServers, current.serversFaultMs);
  // Worth saying only when a few servers hold a good part of it.
  if (concentration && concentration.share >= 0.25) {
    const share = `${number(concentration.share * 100)} %`;
    parts.push(
      zh
        ? `${concentration.servers} 台服务器占服务器故障时长的 ${share}`
        : `${concentration.servers} server${concentration.servers === 1 ? "" : "s"} account${concentration.servers === 1 ? "s" : ""} for ${share} of the servers' fault time`,
    );
  }

  const code = report.topCodes[0];
  if (code) parts.push(zh ? `最常见故障码 ${code.key}（${number(code.count)} 个事件${code.isNew ? "，本期新出现" : ""}）` : `most frequent code ${code.key} (${number(code.count)} events${code.isNew ? ", new this period" : ""})`);

  const job = report.jobs.find((j) => j.stoppedMs > 0);
  if (job) parts.push(zh ? `损失最多的作业 ${job.name}（停工 ${duration(job.stoppedMs)}）` : `the job that lost most was ${job.name} (${duration(job.stoppedMs)} stopped)`);

  if (zh) return `${parts.join("；")}。`;
  const text = parts.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
