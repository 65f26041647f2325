import { networkFaultDefaults } from "./escalation-defaults";
import { faultLevels, type FaultLevel } from "./levels";
import { networkKinds, type EscalationRule, type FaultKind } from "./model";

/**
 * The escalation rules of the seed (shared/seeds/001_*.txt, "芯片网络故障" step 3) with MindCluster's
 * faultCustomization.json semantics (MC component/ascend-device-plugin/build/faultCustomization.json; doc
 * docs/en/scheduling/api/ascend_device_plugin.md; shared/spec/ascend-facts.md §5):
 * - FaultDuration: a network fault lasting at most FaultTimeout (20 s) stays an "NPU network fault" (NotHandleFault);
 *   longer, it is escalated to FaultHandling (PreSeparateNPU). It is recovered only after staying clear for
 *   RecoverTimeout (60 s): a flap that comes back sooner continues the same fault.
 * - FaultFrequency: the same code on the same die `Times` (5) times within `TimeWindow` (86,400 s) escalates to
 *   ManuallySeparateNPU, released after `ReleaseTimeWindow` (172,800 s).
 */
export interface DurationRule {
  /** Fault codes (faultCustomization.json `EventId`). */
  codes: string[];
  /** Kinds the rule also watches when they carry no code (gateway probe failures have none). */
  kinds: FaultKind[];
  faultTimeoutSeconds: number;
  recoverTimeoutSeconds: number;
  handling: FaultLevel;
}

export interface FrequencyRule {
  codes: string[];
  kinds: FaultKind[];
  times: number;
  windowSeconds: number;
  handling: FaultLevel;
  releaseSeconds: number;
}

export interface EscalationSettings {
  duration: DurationRule[];
  frequency: FrequencyRule[];
}

export const defaultEscalationSettings: EscalationSettings = {
  duration: [
    {
      codes: ["81078603"],
      kinds: [...networkKinds],
      faultTimeoutSeconds: networkFaultDefaults.faultTimeoutSeconds,
      recoverTimeoutSeconds: networkFaultDefaults.recoverTimeoutSeconds,
      handling: networkFaultDefaults.escalatedHandling,
    },
  ],
  frequency: [
    {
      codes: ["81078603"],
      kinds: ["gateway-probe-failure", "roce-link-down"],
      times: networkFaultDefaults.frequency.times,
      windowSeconds: networkFaultDefaults.frequency.windowSeconds,
      handling: networkFaultDefaults.frequency.handling,
      releaseSeconds: networkFaultDefaults.frequency.releaseAfterSeconds,
    },
  ],
};

/** MindCluster's ranges for the settings (faultCustomization.json doc table), so a setting cannot be nonsense. */
export const settingRanges = {
  faultTimeoutSeconds: { min: 0, max: 600 },
  recoverTimeoutSeconds: { min: 0, max: 86_400 },
  times: { min: 1, max: 100 },
  windowSeconds: { min: 60, max: 864_000 },
  releaseSeconds: { min: 60, max: 864_000 },
} as const;

/** Each level's place in `faultLevels`: judging a group of 20,000 events asks tens of thousands of times. */
const severities = new Map<string, number>(faultLevels.map((level, i) => [level, i]));

export function severity(level: FaultLevel): number {
  return severities.get(level) ?? -1;
}

export function maxLevel(a: FaultLevel, b: FaultLevel): FaultLevel {
  return severity(a) >= severity(b) ? a : b;
}

/** What the rules need to know of an event. Times in ms since the epoch. */
export interface EscalationInput {
  id: string;
  kind: FaultKind;
  code: string | null;
  reportedLevel: FaultLevel;
  beganAt: number;
  endedAt: number | null;
}

export interface Escalation {
  /** The first event of the merged fault (a flapping link's events share it). */
  episodeId: string;
  level: FaultLevel;
  rule: EscalationRule;
  /** When the rule fired (escalated), or for an open network fault within its timeout, when it will. */
  ruleAt: number | null;
  /** ManuallySeparateNPU: when the release window ends. */
  releaseAt: number | null;
}

function matches(rule: { codes: string[]; kinds: FaultKind[] }, event: Pick<EscalationInput, "code" | "kind">): boolean {
  // A coded event matches by code (faultCustomization.json `EventId`); an uncoded one (a gateway probe failure) by kind.
  return event.code !== null ? rule.codes.includes(event.code) : rule.kinds.includes(event.kind);
}

export function durationRuleFor(settings: EscalationSettings, event: Pick<EscalationInput, "code" | "kind">): DurationRule | undefined {
  return settings.duration.find((rule) => matches(rule, event));
}

export function frequencyRuleFor(settings: EscalationSettings, event: Pick<EscalationInput, "code" | "kind">): FrequencyRule | undefined {
  return settings.frequency.find((rule) => matches(rule, event));
}

interface Episode {
  events: EscalationInput[];
  beganAt: number;
  endedAt: number | null;
}

/**
 * Merges one series (same target, same code or kind) into faults: an event that begins while the previous fault is
 * still open, or less than `recoverMs` after it ended, continues it.
 */
export function mergeEpisodes(series: EscalationInput[], recoverMs: number): Episode[] {
  const sorted = [...series].sort((a, b) => a.beganAt - b.beganAt || a.id.localeCompare(b.id));
  const episodes: Episode[] = [];
  for (const event of sorted) {
    const last = episodes.at(-1);
    if (last && (last.endedAt === null || event.beganAt - last.endedAt < recoverMs)) {
      last.events.push(event);
      last.endedAt = last.endedAt === null || event.endedAt === null ? null : Math.max(last.endedAt, event.endedAt);
    } else {
      episodes.push({ events: [event], beganAt: event.beganAt, endedAt: event.endedAt });
    }
  }
  return episodes;
}

/**
 * Evaluates one series of events of the same target and the same code (or, without a code, the same kind) as of
 * `now` (ms): returns each event's effective level and the rule that set it. Pure; the caller stores the result.
 */
export function evaluateSeries(series: EscalationInput[], settings: EscalationSettings, now: number): Map<string, Escalation> {
  const result = new Map<string, Escalation>();
  const first = series[0];
  if (!first) return result;
  const duration = durationRuleFor(settings, first);
  const frequency = frequencyRuleFor(settings, first);
  const episodes = mergeEpisodes(series, duration ? duration.recoverTimeoutSeconds * 1000 : 0);
  const starts: number[] = [];
  // Episodes come in begin order, so the starts within a window ending at this episode are a suffix of `starts`
  // from `inWindow` on, which only moves forward: one pass rather than a scan of every earlier start per episode.
  let inWindow = 0;
  for (const episode of episodes) {
    starts.push(episode.beganAt);
    const episodeId = episode.events[0]!.id;
    const reported = episode.events.reduce<FaultLevel>((level, e) => maxLevel(level, e.reportedLevel), "NotHandleFault");
    let level: FaultLevel = reported;
    let rule: EscalationRule = "reported";
    let ruleAt: number | null = null;
    let releaseAt: number | null = null;
    if (duration) {
      const timeoutMs = duration.faultTimeoutSeconds * 1000;
      const lasted = (episode.endedAt ?? now) - episode.beganAt;
      // "小于或等于 RoCE 网络超时时间 … 则标记为 NPU 网络故障；如果大于 20 秒，则升级成配置的故障等级": exactly 20 s stays.
      if (lasted > timeoutMs) {
        level = maxLevel(reported, duration.handling);
        rule = "fault-duration";
      } else {
        rule = "within-fault-timeout";
      }
      ruleAt = episode.beganAt + timeoutMs;
    }
    if (frequency) {
      const windowMs = frequency.windowSeconds * 1000;
      while (starts[inWindow]! <= episode.beganAt - windowMs) inWindow++;
      if (starts.length - inWindow >= frequency.times) {
        level = maxLevel(level, frequency.handling);
        rule = "fault-frequency";
        ruleAt = episode.beganAt;
        releaseAt = episode.beganAt + frequency.releaseSeconds * 1000;
      }
    }
    for (const event of episode.events) result.set(event.id, { episodeId, level, rule, ruleAt, releaseAt });
  }
  return result;
}

/** Series key: events of one target with the same code (or, without a code, the same kind) escalate together. */
export function seriesKey(targetKey: string, event: Pick<EscalationInput, "code" | "kind">): string {
  return `${targetKey}|${event.code ?? `kind:${event.kind}`}`;
}

/** How far back the rules look from an event: enough to merge flaps and count the frequency window. */
export function lookbackMs(settings: EscalationSettings): number {
  const recover = Math.max(0, ...settings.duration.map((r) => r.recoverTimeoutSeconds));
  const window = Math.max(0, ...settings.frequency.map((r) => r.windowSeconds));
  return (recover + window) * 1000;
}
