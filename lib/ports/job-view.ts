/**
 * One job's port check cut for the job page (issue 21: a 17,000-rank job's check was 4.6 MB in one answer): its counts,
 * and its bindings and findings a page at a time, filtered. Pure: the check itself is `portReport`'s, unchanged.
 */
import type { PortCode, PortFinding, PortParty, PortSeverity } from "./findings";
import type { PortSource } from "./model";
import type { JobPortCheck, PortHostRow, PortReport } from "./report";

export type JobPortBinding = PortHostRow["bindings"][number];

/** Findings of one code: how many, and on how many hosts. */
export interface JobPortCodeCount {
  code: PortCode;
  severity: PortSeverity;
  findings: number;
  hosts: number;
}

/** `GET /api/v1/jobs/{id}/ports`: the counts the job page shows above its two paged tables. */
export interface JobPortSummary {
  /** False for an ended job: it holds no ports, everything is 0. */
  live: boolean;
  summary: PortReport["summary"];
  /** Bindings of the job in conflict (PT001), and the hosts they are on. */
  conflicts: { bindings: number; hosts: number };
  /** Hosts any finding names. */
  hostsAffected: number;
  byCode: JobPortCodeCount[];
}

export interface JobPortPage<T> {
  /** Items that pass the filters, on every page. */
  total: number;
  offset: number;
  limit: number;
  items: T[];
}

/**
 * A finding as a page carries it: its hosts and each party's ranks cut to the first few, with their counts (one
 * warning on a 131,072-rank job names 2,048 hosts and every rank: 1.6 MB for a page of 20). The message names them
 * in words already.
 */
export interface JobPortFinding extends Omit<PortFinding, "parties"> {
  serverCount: number;
  parties: (PortParty & { rankCount?: number })[];
}

/** How many hosts, and ranks of a party, a finding of a page lists. */
export const FINDING_LIST_MAX = 16;

export interface PageWindow {
  offset: number;
  limit: number;
}

export interface BindingFilter extends PageWindow {
  /** A part of the host's server id (any case). */
  host?: string;
  conflict?: "true" | "false";
  source?: PortSource;
}

export interface FindingFilter extends PageWindow {
  code?: PortCode;
  severity?: PortSeverity;
}

export function jobPortSummary(check: JobPortCheck, live: boolean): JobPortSummary {
  let conflicted = 0;
  let conflictHosts = 0;
  for (const host of check.hosts) {
    const n = host.bindings.reduce((sum, b) => sum + (b.conflict ? 1 : 0), 0);
    conflicted += n;
    if (n > 0) conflictHosts++;
  }
  const affected = new Set<string>();
  const byCode = new Map<PortCode, { count: JobPortCodeCount; hosts: Set<string> }>();
  for (const f of check.findings) {
    let entry = byCode.get(f.code);
    if (!entry) byCode.set(f.code, (entry = { count: { code: f.code, severity: f.severity, findings: 0, hosts: 0 }, hosts: new Set() }));
    entry.count.findings++;
    for (const s of f.servers) {
      entry.hosts.add(s);
      affected.add(s);
    }
  }
  return {
    live,
    summary: check.summary,
    conflicts: { bindings: conflicted, hosts: conflictHosts },
    hostsAffected: affected.size,
    byCode: [...byCode.values()].map(({ count, hosts }) => ({ ...count, hosts: hosts.size })).sort((a, b) => a.code.localeCompare(b.code)),
  };
}

const windowOf = <T>(items: readonly T[], { offset, limit }: PageWindow): JobPortPage<T> => ({ total: items.length, offset, limit, items: items.slice(offset, offset + limit) });

/** The job's bindings in the check's order (host by server id, then port), filtered, one page. */
export function jobPortBindingsPage(check: JobPortCheck, filter: BindingFilter): JobPortPage<JobPortBinding> {
  const host = filter.host?.trim().toLowerCase();
  const conflict = filter.conflict === undefined ? undefined : filter.conflict === "true";
  const rows = host ? check.hosts.filter((h) => h.serverId.toLowerCase().includes(host)) : check.hosts;
  const items: JobPortBinding[] = [];
  for (const row of rows) for (const b of row.bindings) if ((conflict === undefined || b.conflict === conflict) && (filter.source === undefined || b.source === filter.source)) items.push(b);
  return windowOf(items, filter);
}

const cut = (f: PortFinding): JobPortFinding => ({
  ...f,
  servers: f.servers.slice(0, FINDING_LIST_MAX),
  serverCount: f.servers.length,
  parties: f.parties.map((p) => (p.ranks && p.ranks.length > FINDING_LIST_MAX ? { ...p, ranks: p.ranks.slice(0, FINDING_LIST_MAX), rankCount: p.ranks.length } : p)),
});

/** The job's findings in the check's order (errors first, by code), filtered, one page. */
export function jobPortFindingsPage(check: JobPortCheck, filter: FindingFilter): JobPortPage<JobPortFinding> {
  const page = windowOf(
    check.findings.filter((f) => (filter.code === undefined || f.code === filter.code) && (filter.severity === undefined || f.severity === filter.severity)),
    filter,
  );
  return { ...page, items: page.items.map(cut) };
}
