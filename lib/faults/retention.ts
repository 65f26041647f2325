import { z } from "zod";

/**
 * Retention of fault events, per cluster: events that ended more than `days` ago are deleted, or moved to the
 * fault_event_archive table (`archive`). Open events are kept whatever their age.
 *
 * Archiving moves rows to a table rather than exporting files: the move is one transaction per batch (an event is
 * never both kept and archived, or lost when the process dies mid-export), it works the same for every instance
 * sharing the database whatever their file systems, and archived events stay queryable with SQL.
 */
export const retentionModes = ["delete", "archive"] as const;
export type RetentionMode = (typeof retentionModes)[number];

export const defaultRetention = { days: 400, mode: "delete" } as const satisfies RetentionSettings;

export const retentionSettingsSchema = z.object({
  days: z.number().int().min(1).max(3650),
  mode: z.enum(retentionModes),
});
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

/** Rows moved or deleted per transaction: each batch holds its row locks for milliseconds, never blocking ingestion for long. */
export const retentionBatchSize = 5_000;
/** How often the server's retention runner runs. */
export const retentionIntervalMs = 3_600_000;

/** Events that ended before this instant are past retention. */
export function retentionCutoff(settings: RetentionSettings, now: number): number {
  return now - settings.days * 86_400_000;
}
