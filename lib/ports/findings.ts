/** Port findings: stable codes, bilingual messages naming both parties. */
import type { PortSource } from "./model";
import { formatRange, type PortRange } from "./ranges";

export const portCodes = {
  PT001: "two jobs, or two processes of one job, bind the same port on one host while both run",
  PT002: "a port inside the host's ephemeral range and not in ip_local_reserved_ports",
  PT003: "a port below 1024",
  PT004: "a port range smaller than the processes that share it",
  PT005: "a socket-range variable set on some cards of a communicator and not others",
  PT006: "two jobs placed on the same die while both run",
  PT007: "a port the cluster's policy forbids",
  PT008: "a port outside the policy's ranges for its kind",
  PT009: "a port variable HCCL would refuse",
} as const;
export type PortCode = keyof typeof portCodes;
export type PortSeverity = "error" | "warning";

export const severityOf: Record<PortCode, PortSeverity> = {
  PT001: "error",
  PT002: "warning",
  PT003: "error",
  PT004: "error",
  PT005: "error",
  PT006: "error",
  PT007: "error",
  PT008: "warning",
  PT009: "error",
};

/** One side of a finding: a job (its ranks, the port and where it comes from), or the host/OS/policy. */
export interface PortParty {
  kind: "job" | "host" | "policy";
  jobId?: number;
  jobName?: string;
  ranks?: number[];
  source?: PortSource | string;
  ports?: PortRange;
  defaulted?: boolean;
  /** For host/policy parties: what it is ("ephemeral range 32768-60999", "forbidden ports 10250"). */
  label?: string;
}

export interface PortFinding {
  code: PortCode;
  severity: PortSeverity;
  servers: string[];
  ports: PortRange | null;
  parties: PortParty[];
  message: { en: string; zh: string };
}

const rankText = (ranks: readonly number[] | undefined): string => {
  if (!ranks || ranks.length === 0) return "";
  const sorted = [...ranks].sort((a, b) => a - b);
  return sorted.length > 6 ? `${sorted.slice(0, 5).join(", ")} … ${sorted.at(-1)} (${sorted.length})` : sorted.join(", ");
};

export function describeParty(party: PortParty, lang: "en" | "zh"): string {
  if (party.kind !== "job") return party.label ?? "";
  const ports = party.ports ? formatRange(party.ports) : "";
  const ranks = rankText(party.ranks);
  const origin = party.source ? `${party.source}${party.defaulted ? (lang === "en" ? " (default)" : "（默认值）") : ""}` : "";
  return lang === "en"
    ? `job "${party.jobName}"${ranks ? ` ranks ${ranks}` : ""}${origin ? ` via ${origin}` : ""}${ports ? ` on ${ports}` : ""}`
    : `作业“${party.jobName}”${ranks ? `（rank ${ranks}）` : ""}${origin ? `经 ${origin}` : ""}${ports ? ` 占用 ${ports}` : ""}`;
}

const hostsText = (servers: readonly string[]): string => (servers.length > 4 ? `${servers.slice(0, 3).join(", ")} … (${servers.length})` : servers.join(", "));

/** The finding's message in both languages: what, where, and both parties. */
export function messageOf(code: PortCode, servers: readonly string[], ports: PortRange | null, parties: readonly PortParty[], detail?: { en: string; zh: string }): { en: string; zh: string } {
  const [a, b] = [parties[0], parties[1]];
  const where = hostsText(servers);
  const p = ports ? formatRange(ports) : "";
  const en = (x?: PortParty) => (x ? describeParty(x, "en") : "");
  const zh = (x?: PortParty) => (x ? describeParty(x, "zh") : "");
  switch (code) {
    case "PT001":
      return {
        en: `Port ${p} on ${where} is bound by ${en(a)} and by ${en(b)} while both run: one of them fails with EJ0003/EI0019 "address in use".`,
        zh: `主机 ${where} 上的端口 ${p} 同时被${zh(a)}和${zh(b)}绑定，二者运行时间重叠：其中一方会以 EJ0003/EI0019“地址已被占用”失败。`,
      };
    case "PT002":
      return {
        en: `${en(a)} on ${where} lies in ${en(b)} and ${p} is not in ip_local_reserved_ports: an outgoing connection may take it first (reserve it with sysctl -w net.ipv4.ip_local_reserved_ports=${p}).`,
        zh: `${zh(a)}（主机 ${where}）位于${zh(b)}内，且 ${p} 未加入 ip_local_reserved_ports：可能先被出向连接占用（用 sysctl -w net.ipv4.ip_local_reserved_ports=${p} 预留）。`,
      };
    case "PT003":
      return {
        en: `${en(a)} on ${where} uses port ${p}, below 1024 (${en(b)}): HCCL's reference says to avoid [1, 1023].`,
        zh: `${zh(a)}（主机 ${where}）使用端口 ${p}，低于 1024（${zh(b)}）：HCCL 文档要求避免 [1, 1023]。`,
      };
    case "PT004":
      return { en: `${en(a)} on ${where}: ${detail?.en ?? ""} (${en(b)}).`, zh: `${zh(a)}（主机 ${where}）：${detail?.zh ?? ""}（${zh(b)}）。` };
    case "PT005":
      return {
        en: `${detail?.en ?? ""} is set for ${en(a)} but not for ${en(b)}: HCCL requires it on every card of the communicator or on none.`,
        zh: `${detail?.zh ?? ""} 在${zh(a)}上设置，而${zh(b)}未设置：HCCL 要求通信域内所有卡都配置或都不配置。`,
      };
    case "PT006":
      return {
        en: `${en(a)} and ${en(b)} are placed on the same die(s) ${detail?.en ?? ""} of ${where} while both run.`,
        zh: `${zh(a)}与${zh(b)}在运行期间被放置在主机 ${where} 的同一 die 上（${detail?.zh ?? ""}）。`,
      };
    case "PT007":
      return { en: `${en(a)} on ${where} uses ${p}, which ${en(b)} lists as never to be used.`, zh: `${zh(a)}（主机 ${where}）使用了${zh(b)}中禁止使用的端口 ${p}。` };
    case "PT008":
      return { en: `${en(a)} on ${where} is outside ${en(b)}.`, zh: `${zh(a)}（主机 ${where}）不在${zh(b)}内。` };
    case "PT009":
      return {
        en: `${en(a)}: the value "${detail?.en ?? ""}" is invalid (${b?.label ?? ""}); HCCL refuses it (EI0001).`,
        zh: `${zh(a)}：取值“${detail?.zh ?? ""}”无效（${b?.label ?? ""}）；HCCL 会拒绝（EI0001）。`,
      };
  }
}

export function finding(code: PortCode, servers: string[], ports: PortRange | null, parties: PortParty[], detail?: { en: string; zh: string }): PortFinding {
  return { code, severity: severityOf[code], servers, ports, parties, message: messageOf(code, servers, ports, parties, detail) };
}
