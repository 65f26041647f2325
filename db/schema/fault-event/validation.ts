import { defaultRetention, retentionSettingsSchema } from "@/lib/faults/retention";
import { z } from "zod";
import { faultLevels } from "@/lib/faults/levels";
import { faultKinds, faultSources, hcclPhaseIds, rescheduleScopes } from "@/lib/faults/model";
import { maxReportMs } from "@/lib/faults/report";
import { storable, storableJsonSchema } from "@/lib/text-safety";
import { maxEventsPerRequest } from "./constants";

/** A time: ISO 8601 with a zone (2026-11-20T08:00:00Z) or milliseconds since the epoch. Gives ms. */
export const instantSchema = z.union([
  z.number().int().min(0).max(8_640_000_000_000),
  z.iso.datetime({ offset: true, precision: undefined }).transform((text) => Date.parse(text)),
]);

const name = storable(z.string().trim().min(1).max(200));

export const faultTargetInputSchema = z
  .object({
    superPod: name.optional(),
    server: name.optional(),
    npu: z.number().int().min(0).max(63).optional(),
    /** The die's device id on its server (HCCL device_id; Ascend910-<n> in the device plugin's names). */
    die: z.number().int().min(0).max(63).optional(),
    /** For a link: the other die. */
    peer: z.object({ server: name, die: z.number().int().min(0).max(63) }).optional(),
  })
  .strict()
  .refine((t) => (t.npu === undefined && t.die === undefined && t.peer === undefined) || t.server !== undefined, {
    message: "an NPU, die or link target needs its server",
    params: { reason: "target_needs_server" },
  })
  .refine((t) => t.peer === undefined || t.die !== undefined, { message: "a link target needs die and peer", params: { reason: "link_needs_die" } });
export type FaultTargetInput = z.infer<typeof faultTargetInputSchema>;

/**
 * One event of POST /api/v1/fault-events. `action: "begin"` (default) records an event (closed when `endedAt` is
 * given); `action: "end"` closes the open event of the same cluster, target, kind and code. `roce-link-up` is the
 * end of a `roce-link-down`.
 */
export const faultEventInputSchema = z
  .object({
    id: storable(z.string().trim().min(1).max(200)).optional(),
    cluster: name,
    action: z.enum(["begin", "end"]).default("begin"),
    kind: z.enum([...faultKinds, "roce-link-up"]),
    source: z.enum(faultSources).default("api"),
    target: faultTargetInputSchema.default({}),
    code: storable(z.string().trim().max(64)).nullish(),
    level: z.enum(faultLevels).optional(),
    beganAt: instantSchema.optional(),
    endedAt: instantSchema.nullish(),
    phase: z.enum([...hcclPhaseIds, ...rescheduleScopes]).optional(),
    job: storable(z.string().max(200)).optional(),
    rankTable: storable(z.string().max(200)).optional(),
    rank: z.number().int().min(0).max(1_000_000).optional(),
    message: storable(z.string().max(2000)).optional(),
    /** The source's own payload, kept as it is (bounded in depth and size: lib/text-safety.ts). */
    raw: storableJsonSchema.optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    const ending = e.action === "end" || e.kind === "roce-link-up";
    if (!ending && e.beganAt === undefined) ctx.addIssue({ code: "custom", path: ["beganAt"], message: "a begin event needs beganAt", params: { reason: "began_at_required" } });
    if (ending && (e.endedAt ?? e.beganAt) === undefined) ctx.addIssue({ code: "custom", path: ["endedAt"], message: "an end event needs endedAt", params: { reason: "ended_at_required" } });
    if (e.beganAt !== undefined && e.endedAt !== undefined && e.endedAt !== null && e.endedAt < e.beganAt && !ending) {
      ctx.addIssue({ code: "custom", path: ["endedAt"], message: "endedAt is before beganAt", params: { reason: "ended_before_began" } });
    }
  });
export type FaultEventInput = z.infer<typeof faultEventInputSchema>;

export const ingestQuerySchema = z.object({
  /** "all" (default): any invalid item fails the whole batch and nothing is written; "item": valid items are written. */
  atomic: z.enum(["all", "item"]).default("all"),
  /** "1": validate and resolve, say what would happen, write nothing (the CSV import's preview). */
  dryRun: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
});

export const batchSchema = z.array(z.unknown()).max(maxEventsPerRequest, `at most ${maxEventsPerRequest} events per request`);

export const escalationSettingsSchema = z.object({
  duration: z.array(
    z.object({
      codes: z.array(storable(z.string().max(64))).max(100),
      kinds: z.array(z.enum(faultKinds)),
      faultTimeoutSeconds: z.number().int().min(0).max(600),
      recoverTimeoutSeconds: z.number().int().min(0).max(86_400),
      handling: z.enum(faultLevels).refine((l) => l !== "ManuallySeparateNPU", {
        message: "ManuallySeparateNPU is not allowed as FaultDuration handling",
        params: { reason: "manual_separation_not_duration" },
      }),
    }),
  ),
  frequency: z.array(
    z.object({
      codes: z.array(storable(z.string().max(64))).max(100),
      kinds: z.array(z.enum(faultKinds)),
      times: z.number().int().min(1).max(100),
      windowSeconds: z.number().int().min(60).max(864_000),
      handling: z.enum(faultLevels),
      releaseSeconds: z.number().int().min(60).max(864_000),
    }),
  ),
});

export const faultSettingsInputSchema = z.object({
  escalation: escalationSettingsSchema,
  retentionDays: retentionSettingsSchema.shape.days,
  /** Optional so clients written before the archive mode keep working: they get `delete`. */
  retentionMode: retentionSettingsSchema.shape.mode.default(defaultRetention.mode),
});
export type FaultSettingsInput = z.infer<typeof faultSettingsInputSchema>;

/** GET /api/v1/fault-events query. */
export const timelineQuerySchema = z.object({
  cluster: name,
  from: instantSchema.or(z.coerce.number().int()),
  to: instantSchema.or(z.coerce.number().int()),
  kind: z.array(z.enum(faultKinds)).optional(),
  level: z.array(z.enum(faultLevels)).optional(),
  code: storable(z.string().max(64)).optional(),
  target: storable(z.string().max(200)).optional(),
  state: z.enum(["open", "closed", "all"]).default("all"),
  /** A job's id: the events that name it or hit its dies, links or servers while it ran. */
  job: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(50_000).default(20_000),
});
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;

/** GET /api/v1/fault-events/report: a period of at most 400 days, compared with the previous one on `compare=previous`. */
export const reportQuerySchema = z
  .object({
    cluster: name,
    from: instantSchema.or(z.coerce.number().int()),
    to: instantSchema.or(z.coerce.number().int()),
    compare: z.enum(["previous", "none"]).default("none"),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .refine((q) => q.to > q.from, { message: "to must be after from", path: ["to"] })
  .refine((q) => q.to - q.from <= maxReportMs, { message: "a report covers at most 400 days", path: ["to"] });
export type ReportQuery = z.infer<typeof reportQuerySchema>;
