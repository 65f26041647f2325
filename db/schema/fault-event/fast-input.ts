import type { z } from "zod";
import { regexes } from "zod/v4/core";
import { faultLevels } from "@/lib/faults/levels";
import { unstorableJson, unstorableText } from "@/lib/text-safety";
import { faultKinds, faultSources, hcclPhaseIds, rescheduleScopes } from "@/lib/faults/model";
import { faultEventInputSchema, type FaultEventInput, type FaultTargetInput } from "./validation";

/**
 * A fast path for the usual shape of an ingested event, ahead of `faultEventInputSchema` (a batch of 1,000 spent
 * more time in zod than in PostgreSQL's insert). It accepts only what the schema accepts unchanged — trimmed names
 * within their lengths, known enum values, integer numbers in range, the schema's own ISO 8601 pattern — and gives
 * what the schema would give. Anything else (including every invalid item) goes through the schema, which makes
 * the error messages; fault-event/fast-input.test.ts holds the two to the same results.
 */

// The same pattern `z.iso.datetime({ offset: true })` uses, so a string accepted here is accepted there.
const isoInstant = regexes.datetime({ offset: true, precision: undefined, local: false });
const maxInstant = 8_640_000_000_000;

const kinds = new Set<string>([...faultKinds, "roce-link-up"]);
const sources = new Set<string>(faultSources);
const levels = new Set<string>(faultLevels);
const phases = new Set<string>([...hcclPhaseIds, ...rescheduleScopes]);
const actions = new Set(["begin", "end"]);
const eventKeys = new Set(["id", "cluster", "action", "kind", "source", "target", "code", "level", "beganAt", "endedAt", "phase", "job", "rankTable", "rank", "message", "raw"]);
const targetKeys = new Set(["superPod", "server", "npu", "die", "peer"]);
const peerKeys = new Set(["server", "die"]);

/** Thrown inside the fast path: the item is not of the common shape; the schema decides. */
const notFast = Symbol("not the fast shape");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): void {
  for (const key in value) if (!allowed.has(key)) throw notFast;
}

/** A trimmed, non-empty name of at most `max` characters (the schema trims; an untrimmed one goes to it). */
function name(value: unknown, max = 200): string {
  if (typeof value !== "string" || value.length === 0 || value.length > max || value.trim() !== value || unstorableText(value)) throw notFast;
  return value;
}

function optionalName(value: unknown, max: number): string | undefined {
  return value === undefined ? undefined : name(value, max);
}

/** A string kept as it is (no trimming in the schema), at most `max` characters. */
function optionalText(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.length > max || unstorableText(value)) throw notFast;
  return value;
}

function integer(value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw notFast;
  return value;
}

function optionalInteger(value: unknown, min: number, max: number): number | undefined {
  return value === undefined ? undefined : integer(value, min, max);
}

function member<T extends string>(value: unknown, allowed: Set<string>): T {
  if (typeof value !== "string" || !allowed.has(value)) throw notFast;
  return value as T;
}

function instant(value: unknown): number {
  if (typeof value === "number") return integer(value, 0, maxInstant);
  if (typeof value !== "string" || !isoInstant.test(value)) throw notFast;
  return Date.parse(value);
}

function target(value: unknown): FaultTargetInput {
  if (value === undefined) return {};
  if (!isRecord(value)) throw notFast;
  onlyKeys(value, targetKeys);
  const out: FaultTargetInput = {};
  if (value.superPod !== undefined) out.superPod = name(value.superPod);
  if (value.server !== undefined) out.server = name(value.server);
  if (value.npu !== undefined) out.npu = integer(value.npu, 0, 63);
  if (value.die !== undefined) out.die = integer(value.die, 0, 63);
  if (value.peer !== undefined) {
    if (!isRecord(value.peer)) throw notFast;
    onlyKeys(value.peer, peerKeys);
    out.peer = { server: name(value.peer.server), die: integer(value.peer.die, 0, 63) };
  }
  // The schema's refinements: these need their server, a link needs its die.
  if ((out.npu !== undefined || out.die !== undefined || out.peer !== undefined) && out.server === undefined) throw notFast;
  if (out.peer !== undefined && out.die === undefined) throw notFast;
  return out;
}

function fastEvent(item: unknown): FaultEventInput {
  if (!isRecord(item)) throw notFast;
  onlyKeys(item, eventKeys);
  const kind = member<FaultEventInput["kind"]>(item.kind, kinds);
  const action = item.action === undefined ? "begin" : member<FaultEventInput["action"]>(item.action, actions);
  const beganAt = item.beganAt === undefined ? undefined : instant(item.beganAt);
  const endedAt = item.endedAt === undefined || item.endedAt === null ? item.endedAt : instant(item.endedAt);
  const ending = action === "end" || kind === "roce-link-up";
  if (!ending && beganAt === undefined) throw notFast;
  if (ending && (endedAt ?? beganAt) === undefined) throw notFast;
  if (!ending && beganAt !== undefined && endedAt !== undefined && endedAt !== null && endedAt < beganAt) throw notFast;
  let code: string | null | undefined;
  if (item.code === undefined || item.code === null) code = item.code;
  else if (typeof item.code === "string" && item.code.length <= 64 && item.code.trim() === item.code && !unstorableText(item.code)) code = item.code;
  else throw notFast;
  const event: FaultEventInput = {
    cluster: name(item.cluster),
    action,
    kind,
    source: item.source === undefined ? "api" : member<FaultEventInput["source"]>(item.source, sources),
    target: target(item.target),
  };
  const id = optionalName(item.id, 200);
  if (id !== undefined) event.id = id;
  if (code !== undefined) event.code = code;
  if (item.level !== undefined) event.level = member<NonNullable<FaultEventInput["level"]>>(item.level, levels);
  if (beganAt !== undefined) event.beganAt = beganAt;
  if (endedAt !== undefined) event.endedAt = endedAt;
  if (item.phase !== undefined) event.phase = member<NonNullable<FaultEventInput["phase"]>>(item.phase, phases);
  const job = optionalText(item.job, 200);
  if (job !== undefined) event.job = job;
  const rankTable = optionalText(item.rankTable, 200);
  if (rankTable !== undefined) event.rankTable = rankTable;
  const rank = optionalInteger(item.rank, 0, 1_000_000);
  if (rank !== undefined) event.rank = rank;
  const message = optionalText(item.message, 2000);
  if (message !== undefined) event.message = message;
  if ("raw" in item && item.raw !== undefined) {
    if (unstorableJson(item.raw)) throw notFast;
    event.raw = item.raw;
  }
  return event;
}

/** The fast path alone: the parsed event, or null when the item needs the schema (unusual shape or invalid). */
export function parseCommonEvent(item: unknown): FaultEventInput | null {
  try {
    return fastEvent(item);
  } catch (error) {
    if (error === notFast) return null;
    throw error;
  }
}

/** Parses one ingested event: the fast path when it applies, otherwise the schema (with its error). */
export function parseFaultEventInput(item: unknown): { success: true; data: FaultEventInput } | { success: false; error: z.ZodError } {
  const fast = parseCommonEvent(item);
  if (fast) return { success: true, data: fast };
  const result = faultEventInputSchema.safeParse(item);
  return result.success ? { success: true, data: result.data } : { success: false, error: result.error };
}
