/** p50 / p95 / max of a set of timings (nearest-rank percentiles), and the units, as the sse and load benches print them. */
import os from "node:os";

export interface Spread {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return { n: sorted.length, p50: rank(50), p95: rank(95), max: sorted.at(-1) ?? NaN };
}

/** The middle value (the upper one of an even count), as every bench's "median" column reads. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export const ms = (value: number) => (Number.isNaN(value) ? "–" : value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value).toLocaleString("en-US")} ms`);
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(", ");
