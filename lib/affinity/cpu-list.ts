/**
 * CPU lists as Linux prints them (`0-23,96-119`, `0,2,4`): in `lscpu`'s NUMA lines, in the `CPU Affinity`
 * column of `npu-smi info -t topo`, in /proc/self/status `Cpus_allowed_list`. Kept as sorted unique numbers;
 * printed back as the shortest list of ranges.
 */

/** A closed interval of CPU numbers, a ≤ b. */
export interface CpuInterval {
  readonly from: number;
  readonly to: number;
}

const PART = /^(\d+)(?:-(\d+))?$/;

/** The CPUs of a list, or null when the text is not a CPU list (an empty text is the empty list). */
export function parseCpuList(text: string): number[] | null {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const cpus = new Set<number>();
  for (const part of trimmed.split(",")) {
    const match = PART.exec(part.trim());
    if (match === null) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from || to - from > 1 << 16) return null;
    for (let cpu = from; cpu <= to; cpu += 1) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** Consecutive runs of a sorted list of CPUs. */
export function toIntervals(cpus: readonly number[]): CpuInterval[] {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const intervals: CpuInterval[] = [];
  for (const cpu of sorted) {
    const last = intervals.at(-1);
    if (last !== undefined && cpu === last.to + 1) intervals[intervals.length - 1] = { from: last.from, to: cpu };
    else intervals.push({ from: cpu, to: cpu });
  }
  return intervals;
}

export function formatInterval(interval: CpuInterval): string {
  return interval.from === interval.to ? `${interval.from}` : `${interval.from}-${interval.to}`;
}

/** `0-23,96-119`. */
export function formatCpuList(cpus: readonly number[]): string {
  return toIntervals(cpus).map(formatInterval).join(",");
}

export function expandInterval(interval: CpuInterval): number[] {
  const cpus: number[] = [];
  for (let cpu = interval.from; cpu <= interval.to; cpu += 1) cpus.push(cpu);
  return cpus;
}
