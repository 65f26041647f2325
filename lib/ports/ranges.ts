/** Port ranges: inclusive [from, to], parsed from the forms HCCL's socket-range variables and sysctl accept. */
import { MAX_PORT } from "./constants";

export interface PortRange {
  from: number;
  to: number;
}

export type PortList = { kind: "auto" } | { kind: "ports"; ranges: PortRange[] };

export class PortListError extends Error {}

const portOf = (text: string, whole: string): number => {
  if (!/^\d{1,5}$/.test(text)) throw new PortListError(`"${text}" in "${whole}" is not a port number`);
  const port = Number(text);
  if (port < 1 || port > MAX_PORT) throw new PortListError(`port ${port} in "${whole}" is outside [1, ${MAX_PORT}]`);
  return port;
};

/**
 * "60000-60050", "60000,60050-60100", "56000,56005" or "auto" (HCCL_*_SOCKET_PORT_RANGE, envref_07_0143/0144; also
 * net.ipv4.ip_local_reserved_ports, a "list of comma separated ranges"). Overlapping parts are an error, as HCCL says.
 */
export function parsePortList(text: string): PortList {
  const whole = text.trim();
  if (whole.toLowerCase() === "auto") return { kind: "auto" };
  if (whole === "") throw new PortListError("an empty port list");
  const ranges = whole.split(",").map((part) => {
    const [a, b, ...rest] = part.trim().split("-");
    if (rest.length > 0 || a === undefined) throw new PortListError(`"${part}" in "${whole}" is not a port or a range`);
    const from = portOf(a.trim(), whole);
    const to = b === undefined ? from : portOf(b.trim(), whole);
    if (to < from) throw new PortListError(`range ${part} in "${whole}" ends before it starts`);
    return { from, to };
  });
  const sorted = [...ranges].sort((x, y) => x.from - y.from);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.from <= sorted[i - 1]!.to) throw new PortListError(`"${whole}" has overlapping parts`);
  }
  return { kind: "ports", ranges: sorted };
}

export const rangeSize = (r: PortRange): number => r.to - r.from + 1;
export const listSize = (ranges: readonly PortRange[]): number => ranges.reduce((n, r) => n + rangeSize(r), 0);
export const overlaps = (a: PortRange, b: PortRange): boolean => a.from <= b.to && b.from <= a.to;
export const contains = (outer: PortRange, inner: PortRange): boolean => outer.from <= inner.from && inner.to <= outer.to;

/** The parts of `range` not covered by `cover` (sorted, disjoint). */
export function uncovered(range: PortRange, cover: readonly PortRange[]): PortRange[] {
  const out: PortRange[] = [];
  let next = range.from;
  for (const c of [...cover].sort((x, y) => x.from - y.from)) {
    if (c.to < next || c.from > range.to) continue;
    if (c.from > next) out.push({ from: next, to: c.from - 1 });
    next = Math.max(next, c.to + 1);
    if (next > range.to) return out;
  }
  if (next <= range.to) out.push({ from: next, to: range.to });
  return out;
}

/** The parts of `range` inside `within` (sorted, disjoint). */
export function intersect(range: PortRange, within: readonly PortRange[]): PortRange[] {
  return within.filter((w) => overlaps(w, range)).map((w) => ({ from: Math.max(w.from, range.from), to: Math.min(w.to, range.to) }));
}

export const formatRange = (r: PortRange): string => (r.from === r.to ? String(r.from) : `${r.from}-${r.to}`);
export const formatList = (ranges: readonly PortRange[]): string => ranges.map(formatRange).join(",");
