import { csvField } from "../csv-safety";
import { naturalCompare } from "../natural-order";
import type { FaultLevel } from "./levels";

/** What the timeline needs of an event (the API's TimelineEvent). */
export interface LaneEvent {
  id: string;
  superPodId: string | null;
  serverId: string | null;
  deviceId: number | null;
  beganAt: number;
  endedAt: number | null;
  level: FaultLevel;
  /** `switch` for a 灵衢 switch fault (it goes to the fabric lane); other kinds are placed by pod, server and die. */
  targetKind?: string;
  /** A switch fault's bus plane (raw.fabric.plane), its lane inside the open fabric lane; null when unmapped. */
  planeKey?: string | null;
}

export interface Lane {
  /** `cluster`, `fabric`, `plane:<plane key>`, `pod:<id>`, `server:<id>`, `die:<server>/<device>`. */
  key: string;
  kind: "cluster" | "fabric" | "plane" | "pod" | "server" | "die";
  label: string;
  depth: number;
  /** Whether the lane can open into finer lanes, and whether it is open. */
  expandable: boolean;
  expanded: boolean;
  count: number;
}

/** The fabric's lane: the switches and planes, beside the super pods' lanes. */
export const fabricLane = "fabric";
const isFabric = (e: LaneEvent) => e.targetKind === "switch";
const planeLane = (planeKey: string) => `plane:${planeKey}`;

/**
 * Swimlanes super pod → server → die, and the fabric beside them: a closed super pod is one lane holding all its
 * events; an open one shows a lane per server with events; an open server shows a lane per die (its own events on the
 * server lane). Switch faults sit on the fabric lane (after the cluster-wide one), which opens into a lane per bus
 * plane. Events with no place (cluster-wide) sit on the first lane. Returns the lanes in order and each event's lane.
 */
export function buildLanes(events: LaneEvent[], expanded: ReadonlySet<string>): { lanes: Lane[]; laneOf: Map<string, number> } {
  const pods = new Map<string, Map<string, Set<number>>>();
  const planes = new Set<string>();
  let clusterWide = 0;
  let fabric = 0;
  for (const e of events) {
    if (isFabric(e)) {
      fabric++;
      if (e.planeKey) planes.add(e.planeKey);
      continue;
    }
    if (e.serverId === null && e.superPodId === null) {
      clusterWide++;
      continue;
    }
    const pod = e.superPodId ?? "";
    const servers = pods.get(pod) ?? new Map<string, Set<number>>();
    pods.set(pod, servers);
    if (e.serverId !== null) {
      const dies = servers.get(e.serverId) ?? new Set<number>();
      servers.set(e.serverId, dies);
      if (e.deviceId !== null) dies.add(e.deviceId);
    }
  }
  const lanes: Lane[] = [];
  const index = new Map<string, number>();
  const push = (lane: Omit<Lane, "count">) => {
    index.set(lane.key, lanes.length);
    lanes.push({ ...lane, count: 0 });
  };
  if (clusterWide) push({ key: "cluster", kind: "cluster", label: "cluster", depth: 0, expandable: false, expanded: false });
  if (fabric) {
    const open = expanded.has(fabricLane) && planes.size > 0;
    push({ key: fabricLane, kind: "fabric", label: "fabric", depth: 0, expandable: planes.size > 0, expanded: open });
    if (open) {
      for (const plane of [...planes].sort(naturalCompare)) push({ key: planeLane(plane), kind: "plane", label: plane, depth: 1, expandable: false, expanded: false });
    }
  }
  for (const pod of [...pods.keys()].sort(naturalCompare)) {
    const podKey = `pod:${pod}`;
    // Without super pods (AI Server mode) servers are the top level.
    const podOpen = pod === "" || expanded.has(podKey);
    if (pod !== "") push({ key: podKey, kind: "pod", label: pod, depth: 0, expandable: true, expanded: podOpen });
    if (!podOpen) continue;
    for (const server of [...pods.get(pod)!.keys()].sort(naturalCompare)) {
      const serverKey = `server:${server}`;
      const dies = pods.get(pod)!.get(server)!;
      const open = expanded.has(serverKey) && dies.size > 0;
      push({ key: serverKey, kind: "server", label: server, depth: pod === "" ? 0 : 1, expandable: dies.size > 0, expanded: open });
      if (!open) continue;
      for (const die of [...dies].sort((a, b) => a - b)) {
        push({ key: `die:${server}/${die}`, kind: "die", label: `${server} / ${die}`, depth: pod === "" ? 1 : 2, expandable: false, expanded: false });
      }
    }
  }
  const laneOf = new Map<string, number>();
  for (const e of events) {
    const candidates = isFabric(e)
      ? [e.planeKey ? planeLane(e.planeKey) : null, fabricLane]
      : [
      e.serverId !== null && e.deviceId !== null ? `die:${e.serverId}/${e.deviceId}` : null,
      e.serverId !== null ? `server:${e.serverId}` : null,
      e.superPodId !== null ? `pod:${e.superPodId}` : null,
      "cluster",
    ];
    const lane = candidates.map((k) => (k === null ? undefined : index.get(k))).find((i) => i !== undefined) ?? 0;
    laneOf.set(e.id, lane);
    if (lanes[lane]) lanes[lane].count++;
  }
  return { lanes, laneOf };
}

/**
 * The lanes listed in text, at most `max` of them, and how many more there are: a cluster without super pods has a
 * lane per server with events (4,983 at 524,288 plain NPUs with the scale bench's 5,000 events), and listing them all
 * was 10,000 elements whose first layout was a task of 210 ms (issue 21). The rest are found with the server filter.
 */
export function listedLanes(lanes: Lane[], max: number): { listed: Lane[]; more: number } {
  return { listed: lanes.slice(0, max), more: Math.max(0, lanes.length - max) };
}

/** Events overlapping [from, to) (open events run until `now`). */
export function overlapping<T extends Pick<LaneEvent, "beganAt" | "endedAt">>(events: T[], from: number, to: number, now: number): T[] {
  return events.filter((e) => e.beganAt < to && (e.endedAt ?? now) >= from);
}

/** RFC 4180 CSV (quotes doubled, CRLF between records) with spreadsheet formulas neutralised (lib/csv-safety.ts). */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** Splits a duration into the units a person reads: 3 min 20 s, 2 h 5 min, 4 d 3 h. */
export function durationParts(ms: number): { unit: "d" | "h" | "min" | "s" | "ms"; value: number }[] {
  if (ms < 1000) return [{ unit: "ms", value: Math.max(0, Math.round(ms)) }];
  const s = Math.round(ms / 1000);
  const units = [
    ["d", 86_400],
    ["h", 3600],
    ["min", 60],
    ["s", 1],
  ] as const;
  const parts: { unit: "d" | "h" | "min" | "s"; value: number }[] = [];
  let rest = s;
  for (const [unit, size] of units) {
    const value = Math.floor(rest / size);
    rest -= value * size;
    if (value > 0) parts.push({ unit, value });
  }
  return parts.slice(0, 2);
}
