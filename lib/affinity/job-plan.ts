/**
 * CPU binding for a whole job: one check and one plan per server model the job runs on, or per server where servers
 * of one model differ (another stored layout, or other NPUs of the job on them), so the job's launch script can
 * export one CPU_AFFINITY_CONF line per kind of server (issue 17: "one line per server model in the job (or per
 * server where they differ), exportable as env").
 *
 * The job's current CPU_AFFINITY_CONF and ASCEND_RT_VISIBLE_DEVICES come from its recorded environment and apply to
 * every server; the NPUs on each server are the rank table's `device_id`s placed there (physical NPU numbers).
 */
import { DomainError } from "@/lib/errors";
import { checkAffinity, type AffinityCheck } from "./check";
import type { CpuLayout } from "./layout";
import { planAffinity, type AffinityPlan } from "./plan";

export interface JobServer {
  readonly serverId: string;
  readonly model: string;
  /** The job's physical NPUs on the server. */
  readonly npus: readonly number[];
  /** The server's stored layout; null when none was stored. */
  readonly layout: CpuLayout | null;
}

export interface JobAffinityOptions {
  /** Cores kept free on every NUMA node (default 0). */
  readonly reserve?: number;
  readonly mode?: 1 | 2;
}

export interface JobAffinityGroup {
  /** Stable within one answer: the model, or the model and its first server when the model is split. */
  readonly key: string;
  readonly model: string;
  /** True when the model's servers differ, so this group is some of them. */
  readonly partOfModel: boolean;
  readonly servers: readonly string[];
  readonly npus: readonly number[];
  readonly layout: CpuLayout;
  /** The job's current value checked on this kind of server; null when the job sets none. */
  readonly check: AffinityCheck | null;
  readonly plan: AffinityPlan | null;
  /** Why no plan could be made (no topo, too few cores, …), in the DomainError's code and message. */
  readonly planError: { readonly code: string; readonly message: string } | null;
}

export interface JobAffinity {
  readonly value: string | null;
  readonly visibleDevices: string | null;
  readonly options: { readonly reserve: number; readonly mode: 1 | 2 };
  readonly groups: readonly JobAffinityGroup[];
  /** Servers of the job without a stored layout, by model. */
  readonly withoutLayout: readonly { readonly serverId: string; readonly model: string }[];
  /** Every planned group's env lines, each under a comment naming its servers. */
  readonly env: string;
}

/** What the API answers for a job: the binding with the job and its cluster. */
export interface JobAffinityView extends JobAffinity {
  readonly jobId: number;
  readonly cluster: string;
}

const sameNpus = (npus: readonly number[]) => [...npus].sort((a, b) => a - b).join(",");

export function planJobAffinity(servers: readonly JobServer[], environment: Readonly<Record<string, string>>, options: JobAffinityOptions = {}): JobAffinity {
  const reserve = options.reserve ?? 0;
  const mode = options.mode ?? 1;
  const value = environment.CPU_AFFINITY_CONF?.trim() || null;
  const visibleDevices = environment.ASCEND_RT_VISIBLE_DEVICES?.trim() || null;

  const withoutLayout = servers.filter((server) => server.layout === null).map(({ serverId, model }) => ({ serverId, model }));
  // Servers alike when they have the same model, the same stored layout and the same NPUs of the job.
  const buckets = new Map<string, { model: string; layout: CpuLayout; npus: readonly number[]; servers: string[] }>();
  for (const server of servers) {
    if (server.layout === null || server.npus.length === 0) continue;
    const key = JSON.stringify([server.model, server.layout, sameNpus(server.npus)]);
    const bucket = buckets.get(key);
    if (bucket) bucket.servers.push(server.serverId);
    else buckets.set(key, { model: server.model, layout: server.layout, npus: [...server.npus].sort((a, b) => a - b), servers: [server.serverId] });
  }
  const perModel = new Map<string, number>();
  for (const bucket of buckets.values()) perModel.set(bucket.model, (perModel.get(bucket.model) ?? 0) + 1);

  const groups = [...buckets.values()]
    .map((bucket): JobAffinityGroup => {
      const partOfModel = (perModel.get(bucket.model) ?? 0) > 1;
      const servers = [...bucket.servers].sort();
      const check =
        value === null
          ? null
          : checkAffinity({ value, layout: bucket.layout, jobNpus: bucket.npus, ...(visibleDevices === null ? {} : { visibleDevices }) });
      let plan: AffinityPlan | null = null;
      let planError: JobAffinityGroup["planError"] = null;
      try {
        plan = planAffinity({ layout: bucket.layout, npus: bucket.npus, reserve, mode });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        planError = { code: error.code, message: error.message };
      }
      return { key: partOfModel ? `${bucket.model}/${servers[0]}` : bucket.model, model: bucket.model, partOfModel, servers, npus: bucket.npus, layout: bucket.layout, check, plan, planError };
    })
    .sort((a, b) => a.model.localeCompare(b.model) || (a.servers[0] ?? "").localeCompare(b.servers[0] ?? ""));

  const env = groups
    .filter((group) => group.plan !== null)
    .map((group) => `# ${group.model}: ${group.servers.join(", ")}\n${group.plan?.env}`)
    .join("\n\n");
  return { value, visibleDevices, options: { reserve, mode }, groups, withoutLayout, env };
}
