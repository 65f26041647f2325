import type { FaultKind } from "./model";

/**
 * A realistic day of faults on an Atlas A3 super pod cluster, as the seeds describe them (shared/seeds/001_*.txt,
 * 002_*.txt): short RoCE link flaps and gateway probe failures (most under the 20 s RoCE timeout), a link that flaps
 * for minutes (one long fault), a die whose link drops five times in the day (ManuallySeparateNPU), a leaf switch
 * failure taking one rail down across a super pod (with HCCL execution timeouts EI0002 on the ranks that waited and
 * a job-level reschedule), a chip fault, an HCCL connection timeout cascade (EI0006) whose culprit is the rank that
 * did NOT time out, a 灵衢 bus-device fault found by the 5-minute poll, and a link still down at the end.
 * Deterministic for a given end time and seed; output is the POST /api/v1/fault-events item shape.
 */
export interface SimulatedEvent {
  id: string;
  cluster: string;
  kind: FaultKind;
  source: "simulator";
  target: { server?: string; die?: number; superPod?: string; peer?: { server: string; die: number } };
  code?: string;
  level?: string;
  phase?: string;
  beganAt: string;
  endedAt?: string;
  job?: string;
  rank?: number;
  message?: string;
}

export interface SimulationOptions {
  cluster?: string;
  /** The end of the simulated day (ms); the day is the 24 h before it. */
  end: number;
  superPods?: number;
  serversPerPod?: number;
  diesPerServer?: number;
  seed?: number;
}

/** mulberry32: a small, well-known seeded PRNG, so the same options give the same day. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function serverName(pod: number, slot: number): string {
  return `sp${pod}-node${String(slot).padStart(2, "0")}`;
}

export function simulateDay(options: SimulationOptions): SimulatedEvent[] {
  const cluster = options.cluster ?? "atlas-a3-demo";
  const pods = options.superPods ?? 2;
  const perPod = options.serversPerPod ?? 48;
  const dies = options.diesPerServer ?? 16;
  const end = Math.floor(options.end / 1000) * 1000;
  const start = end - 86_400_000;
  const rand = random(options.seed ?? 7);
  const pick = (n: number) => Math.floor(rand() * n);
  const iso = (ms: number) => new Date(Math.min(ms, end)).toISOString();
  const events: SimulatedEvent[] = [];
  let n = 0;
  const add = (e: Omit<SimulatedEvent, "id" | "cluster" | "source">) => events.push({ id: `day-${start}-${++n}`, cluster, source: "simulator", ...e });
  const randomDie = () => ({ server: serverName(pick(pods), pick(perPod)), die: pick(dies) });
  const hour = 3_600_000;
  // Named servers of the scenarios, placed as a share of the super pod so smaller clusters have them too.
  const slot = (share: number) => Math.min(perPod - 1, Math.floor(perPod * share));
  const lastPod = pods - 1;

  // 1. Short link flaps and gateway probe failures all day: mostly 2–18 s, some 25–60 s (escalated).
  for (let i = 0; i < 60; i++) {
    const at = start + pick(23 * 60) * 60_000 + pick(60_000);
    const long = rand() < 0.15;
    const seconds = long ? 25 + pick(35) : 2 + pick(16);
    const gateway = rand() < 0.3;
    add({ kind: gateway ? "gateway-probe-failure" : "roce-link-down", ...(gateway ? {} : { code: "81078603" }), target: randomDie(), beganAt: iso(at), endedAt: iso(at + seconds * 1000) });
  }

  // 2. A link that flaps for six minutes: 10 s down, 30 s up — one long fault, escalated to PreSeparateNPU.
  const flapping = { server: serverName(0, slot(0.25)), die: 5 % dies };
  for (let t = start + 3 * hour; t < start + 3 * hour + 6 * 60_000; t += 40_000) {
    add({ kind: "roce-link-down", code: "81078603", target: flapping, beganAt: iso(t), endedAt: iso(t + 10_000) });
  }

  // 3. The same die drops its link five times in the day: the fifth escalates to ManuallySeparateNPU.
  const repeat = { server: serverName(lastPod, slot(0.44)), die: 10 % dies };
  for (const h of [1, 5, 9, 13, 17]) add({ kind: "roce-link-down", code: "81078603", target: repeat, beganAt: iso(start + h * hour), endedAt: iso(start + h * hour + 6_000) });

  // 4. HCCL connection timeout cascade at operator loading: every rank of the job but the culprit reports EI0006.
  const cascadeAt = start + 5 * hour + 17 * 60_000;
  const culpritSlot = slot(0.625);
  const culprit = { server: serverName(0, culpritSlot), die: 3 % dies };
  add({ kind: "npu-chip-fault", code: "80E18402", level: "RestartNPU", target: culprit, beganAt: iso(cascadeAt - 90_000), endedAt: iso(cascadeAt + 20 * 60_000), message: "process hung before socket set-up (no EI0006 on this rank)", job: "llama-70b", rank: 483 });
  for (let s = Math.max(0, culpritSlot - 6); s < Math.min(perPod, culpritSlot + 6); s++) {
    for (const die of [2, 3, 4].map((d) => d % dies)) {
      if (s === culpritSlot && die === culprit.die) continue;
      add({ kind: "hccl-error", code: "EI0006", phase: "operator-loading", level: "RestartBusiness", target: { server: serverName(0, s), die }, beganAt: iso(cascadeAt + pick(40_000)), endedAt: iso(cascadeAt + 120_000), job: "llama-70b", rank: s * dies + die, message: "connection set-up timed out (HCCL_CONNECT_TIMEOUT)" });
    }
  }
  add({ kind: "job-rescheduled", phase: "job", target: {}, beganAt: iso(cascadeAt + 125_000), endedAt: iso(cascadeAt + 6 * 60_000), job: "llama-70b", message: "job-level reschedule after EI0006" });

  // 5. A chip fault: SeparateNPU for two hours until the NPU was replaced; pod-level reschedule.
  const chipAt = start + 9 * hour + 41 * 60_000;
  add({ kind: "npu-chip-fault", code: "80E18402", level: "SeparateNPU", target: { server: serverName(0, slot(0.35)), die: 6 % dies }, beganAt: iso(chipAt), endedAt: iso(chipAt + 2 * hour) });
  add({ kind: "job-rescheduled", phase: "pod", target: { server: serverName(0, slot(0.35)) }, beganAt: iso(chipAt + 30_000), endedAt: iso(chipAt + 4 * 60_000), job: "qwen-235b" });

  // 6. A leaf switch fails: rail 7 of every server of the last super pod loses its link for 4 minutes.
  const switchAt = start + 14 * hour + 2 * 60_000;
  const pod = lastPod;
  for (let s = 0; s < perPod; s++) {
    add({ kind: "roce-link-down", code: "81078603", target: { server: serverName(pod, s), die: 7 % dies }, beganAt: iso(switchAt + pick(800)), endedAt: iso(switchAt + 4 * 60_000 + pick(5_000)), message: "leaf switch down: rail 7" });
  }
  // Ranks that waited on the dead rail time out in execution (EI0002); all of them did, so it is the network.
  for (let s = 0; s < perPod; s += 3) {
    add({ kind: "hccl-error", code: "EI0002", phase: "execution", level: "RestartBusiness", target: { server: serverName(pod, s), die: pick(dies) }, beganAt: iso(switchAt + 60_000 + pick(10_000)), endedAt: iso(switchAt + 70_000), job: "qwen-235b", message: "notify wait timed out (HCCL_EXEC_TIMEOUT); error cqe" });
  }
  add({ kind: "job-rescheduled", phase: "job", target: { superPod: String(pod) }, beganAt: iso(switchAt + 75_000), endedAt: iso(switchAt + 7 * 60_000), job: "qwen-235b", message: "job-level reschedule after the switch failure" });

  // 7. A 灵衢 bus-device (HCCS) fault found by the 5-minute poll, and a link between two dies.
  const busAt = start + 19 * hour;
  add({ kind: "bus-device-fault", level: "SeparateNPU", target: { server: serverName(lastPod, slot(0.1)), die: 0 }, beganAt: iso(busAt), endedAt: iso(busAt + 35 * 60_000), message: "UB bus device fault (polled every 5 min)" });
  add({ kind: "hccs-fault", level: "SubHealthFault", target: { server: serverName(0, slot(0.17)), die: 1 % dies, peer: { server: serverName(0, slot(0.17) + 1 < perPod ? slot(0.17) + 1 : 0), die: 1 % dies } }, beganAt: iso(busAt + 2 * hour), endedAt: iso(busAt + 2 * hour + 12 * 60_000) });

  // 8. Still broken at the end: a link down for the last ten minutes, open.
  add({ kind: "roce-link-down", code: "81078603", target: { server: serverName(0, slot(0.83)), die: 9 % dies }, beganAt: iso(end - 10 * 60_000) });

  return events.sort((a, b) => a.beganAt.localeCompare(b.beganAt));
}
