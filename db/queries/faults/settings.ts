import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import type { FaultSettings } from "@/lib/faults/api-types";
import { defaultEscalationSettings } from "@/lib/faults/escalation";
import { defaultRetention, type RetentionMode } from "@/lib/faults/retention";
import { DomainError } from "@/lib/errors";
import type { DatabaseHandle } from "../../client";
import * as schema from "../../schema";
import { escalationSettingsSchema, type FaultSettingsInput } from "../../schema/fault-event/validation";
import { inTransaction } from "../../transaction";
import { recordAudit, type AuditActor } from "../audit";

/* Per-cluster fault settings: the escalation rules (MindCluster's defaults until changed) and retention. */

export type { FaultSettings } from "@/lib/faults/api-types";

/** A change that did not start from the current settings: someone saved in between. `current` is what they saved. */
function settingsConflict(current: FaultSettings): DomainError {
  return new DomainError(
    "conflict",
    `the settings were changed since the version this change started from (now version ${current.version}): load them again and redo the change`,
    { code: "settings_conflict", details: { current } },
  );
}

type Queryable = pg.Pool | pg.PoolClient;

async function readFaultSettings(executor: Queryable, clusterId: number, lock: boolean): Promise<FaultSettings> {
  const { rows } = await executor.query<{ escalation: unknown; retention_days: number; retention_mode: RetentionMode; version: string; updated_ms: string }>(
    `select escalation, retention_days, retention_mode, (extract(epoch from updated_at) * 1000000)::bigint::text as version,
            (extract(epoch from updated_at) * 1000)::bigint::text as updated_ms
     from fault_settings where cluster_id = $1${lock ? " for update" : ""}`,
    [clusterId],
  );
  const row = rows[0];
  if (!row) return { escalation: defaultEscalationSettings, retentionDays: defaultRetention.days, retentionMode: defaultRetention.mode, customised: false, version: "0", updatedAt: null };
  const parsed = escalationSettingsSchema.safeParse(row.escalation);
  return {
    escalation: parsed.success ? parsed.data : defaultEscalationSettings,
    retentionDays: row.retention_days,
    retentionMode: row.retention_mode,
    customised: true,
    version: row.version,
    updatedAt: Number(row.updated_ms),
  };
}

export function getFaultSettings(pool: Queryable, clusterId: number): Promise<FaultSettings> {
  return readFaultSettings(pool, clusterId, false);
}

/**
 * Saves a cluster's settings with their audit record. `expectedVersion` (If-Match) is the version the change
 * started from; when given and the settings moved on meanwhile, nothing is written and a conflict DomainError
 * (code settings_conflict) carries the current settings. Without it the change applies to whatever is there (scripts
 * that own the settings).
 */
export async function putFaultSettings(
  handle: DatabaseHandle,
  cluster: { id: number; slug: string },
  settings: FaultSettingsInput,
  expectedVersion: string | null,
  actor: AuditActor,
): Promise<FaultSettings> {
  return inTransaction(handle.pool, async (client) => {
    // The row lock (or, for a first save, the primary key) serialises concurrent saves of one cluster.
    const before = await readFaultSettings(client, cluster.id, true);
    if (expectedVersion !== null && expectedVersion !== before.version) throw settingsConflict(before);
    const onConflict =
      before.customised || expectedVersion === null
        ? "do update set escalation = excluded.escalation, retention_days = excluded.retention_days, retention_mode = excluded.retention_mode, updated_at = excluded.updated_at"
        : "do nothing";
    const written = await client.query(
      `insert into fault_settings (cluster_id, escalation, retention_days, retention_mode, updated_at) values ($1, $2::jsonb, $3, $4, clock_timestamp())
       on conflict (cluster_id) ${onConflict}`,
      [cluster.id, JSON.stringify(settings.escalation), settings.retentionDays, settings.retentionMode],
    );
    if (written.rowCount !== 1) throw settingsConflict(await readFaultSettings(client, cluster.id, false));
    await recordAudit(drizzle(client, { schema }), {
      actor,
      action: "fault_settings.update",
      target: { type: "cluster", id: cluster.slug },
      before: { escalation: before.escalation, retentionDays: before.retentionDays, retentionMode: before.retentionMode },
      after: { escalation: settings.escalation, retentionDays: settings.retentionDays, retentionMode: settings.retentionMode },
    });
    return readFaultSettings(client, cluster.id, false);
  });
}
