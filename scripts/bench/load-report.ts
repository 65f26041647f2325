import { ms, spread } from "./percentiles";
import { ASYNC, DRAIN_LIMIT_SECONDS, ingestEndpoint, TARGET } from "./load-workload";

/* What one phase of the load bench (./load.ts) measured, and the table of them. */

export interface Phase {
  /** Latencies (ms) per endpoint, and failed calls (status other than 200, or no answer). */
  latencies: Map<string, number[]>;
  failures: Map<string, number>;
  events: number;
  /** Batches answered 429 (each sent again after Retry-After). */
  refused: number;
  seconds: number;
  /** Cores used: the instances' Next.js servers, the supervisors of both (where the inbox judge runs), PostgreSQL, this bench. */
  cpu: { instances: number; supervisors: number; postgres: number; bench: number } | null;
  load: string;
  /** The inbox at the measured window's start and end, and the seconds it took to empty after the feed stopped. */
  inbox: { start: Backlog; end: Backlog; drainSeconds: number | null } | null;
}

export interface Backlog {
  events: number;
  oldestAgeMs: number | null;
}

/** One row per endpoint and figure, one column per setup. */
export function printTable(setups: { name: string; phase: Phase }[]): void {
  const endpoints = [...new Set(setups.flatMap((s) => [...s.phase.latencies.keys(), ...s.phase.failures.keys()]))].sort((a, b) =>
    a === ingestEndpoint ? 1 : b === ingestEndpoint ? -1 : a.localeCompare(b),
  );
  const cell = (phase: Phase, endpoint: string) => {
    const s = spread(phase.latencies.get(endpoint) ?? []);
    const failed = phase.failures.get(endpoint) ?? 0;
    return `${ms(s.p50)} / ${ms(s.p95)} (${s.n}${failed ? `, ${failed} failed` : ""})`;
  };
  const header = ["endpoint", ...setups.map((s) => `${s.name}: p50 / p95 (calls)`)];
  const rows = endpoints.map((endpoint) => [endpoint, ...setups.map((s) => cell(s.phase, endpoint))]);
  const viewerCalls = (phase: Phase) => [...phase.latencies.entries()].filter(([e]) => e !== ingestEndpoint).flatMap(([, v]) => v);
  rows.push(["every viewer call: p50 / p95 (calls)", ...setups.map((s) => {
    const all = spread(viewerCalls(s.phase));
    return `${ms(all.p50)} / ${ms(all.p95)} (${all.n})`;
  })]);
  rows.push(["accepted events/s (target " + TARGET.toLocaleString("en-US") + ")", ...setups.map((s) => Math.round(s.phase.events / s.phase.seconds).toLocaleString("en-US"))]);
  if (ASYNC) {
    const judged = (phase: Phase) => (phase.inbox ? phase.events - (phase.inbox.end.events - phase.inbox.start.events) : NaN);
    rows.push(["judged events/s (accepted less the inbox's growth)", ...setups.map((s) => Math.round(judged(s.phase) / s.phase.seconds).toLocaleString("en-US"))]);
    rows.push(["inbox at the end: events / oldest batch's age (judge lag)", ...setups.map((s) => (s.phase.inbox ? `${s.phase.inbox.end.events.toLocaleString("en-US")} / ${((s.phase.inbox.end.oldestAgeMs ?? 0) / 1000).toFixed(1)} s` : "–"))]);
    rows.push(["inbox emptied after the feed stopped in", ...setups.map((s) => (s.phase.inbox?.drainSeconds == null ? `more than ${DRAIN_LIMIT_SECONDS} s` : `${s.phase.inbox.drainSeconds.toFixed(1)} s`))]);
  }
  rows.push(["batches refused (429, sent again after Retry-After)", ...setups.map((s) => s.phase.refused.toLocaleString("en-US"))]);
  rows.push(["viewer page calls/s", ...setups.map((s) => Math.round(viewerCalls(s.phase).length / s.phase.seconds).toLocaleString("en-US"))]);
  rows.push(["CPU, cores: instances / both supervisors (inbox judge) / PostgreSQL / bench", ...setups.map((s) => (s.phase.cpu ? `${s.phase.cpu.instances.toFixed(2)} / ${s.phase.cpu.supervisors.toFixed(2)} / ${s.phase.cpu.postgres.toFixed(2)} / ${s.phase.cpu.bench.toFixed(2)}` : "–"))]);
  rows.push(["load average at the end", ...setups.map((s) => s.phase.load)]);
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}
