/**
 * The Ascend Operator's rank-table ConfigMap, as `kubectl get cm rings-config-<job> -n <ns> -o json` prints it.
 * Facts (shared/spec/ascend-facts.md §3):
 * - name `rings-config-<job name>`, data key `hccl.json` (the rank table), data key `version` (the generator's
 *   timestamp) — Ascend/mind-cluster component/ascend-operator/pkg/controllers/v1/consts.go (`configmapPrefix`,
 *   `configmapKey`, `configmapVersion`); docs/en/scheduling/api/ascend_operator.md.
 * - the user creates it with `hccl.json: {"status":"initializing"}` and label `ring-controller.atlas: ascend-910`
 *   (or `ascend-910b`), e.g. `rings-config-mindie-server-0` in namespace `mindie` (MindCluster's MindIE Motor
 *   deployment guide) or `rings-config-mindx-dls-test` (03_full_npu_scheduling_and_static_vnpu_scheduling_training.md);
 *   the operator rewrites it with `status: completed` and the server list once every pod has its devices, and back to
 *   `initializing` when a pod is deleted or rescheduled (pkg/controllers/v1/pod.go, pkg/ranktable/common/common.go).
 * - a completed table as the operator writes it: status first, then server_list with `server_id` (the node's IP),
 *   `container_ip`, devices with `device_id`, `device_ip`, `super_device_id`, `rank_id` as strings, `server_count`,
 *   `version` "1.2" and `super_pod_list` on A3 — the sample in MindCluster's fault-diagnosis log-collection guide
 *   (`{"status":"completed","server_list":[{"device":[{"device_id":"0","device_ip":"10.0.2.41","super_device_id":
 *   "113246208","rank_id":"0"},…],"server_id":"10.0.0.1","container_ip":"192.168.247.11"}],"server_count":"1",
 *   "version":"1.2","super_pod_list":[…]}`), and ClusterD's tests (`{"status":"completed","server_list":[…]}`).
 */
import { invalid } from "@/lib/errors";
import { CONFIGMAP_KEY, CONFIGMAP_PREFIX } from "@/lib/rank-table-workspace/configmap";
import type { JobState } from "./model";

/** The generator's version key beside hccl.json. */
export const CONFIGMAP_VERSION_KEY = "version";

export interface RingsConfig {
  /** The job's name: the ConfigMap's name without `rings-config-`. */
  job: string;
  namespace: string;
  /** hccl.json's `status`: initializing, completed, or what else it says (kept as written). */
  status: string;
  /** The job's state that status implies. */
  state: JobState;
  /** hccl.json as posted. */
  rankTableText: string;
  /** True when hccl.json has a server list (the operator has written the table). */
  hasServers: boolean;
  /** The operator's `version` data key, or the object's resourceVersion: tells a newer post from an older one. */
  version: string | null;
  labels: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const refuse = (message: string, path: string) => invalid(`${message} (at ${path})`, { code: "invalid_rings_config", details: { path } });

/** hccl.json's status → the job's state: a table still being built is a job still pending. */
export function stateOfStatus(status: string): JobState {
  if (status === "completed") return "running";
  if (status === "initializing") return "pending";
  return "unknown";
}

/**
 * Reads a rings-config ConfigMap (the whole object as kubectl prints it, or a `{metadata, data}` part of it).
 * Throws DomainError invalid (code invalid_rings_config, details.path) saying what is wrong and where.
 */
export function parseRingsConfig(input: unknown): RingsConfig {
  if (!isObject(input)) throw refuse("a rings-config ConfigMap must be a JSON object (kubectl get cm rings-config-<job> -n <ns> -o json)", "body");
  if (input.kind !== undefined && input.kind !== "ConfigMap") throw refuse(`expected kind ConfigMap, not ${JSON.stringify(input.kind)}`, "kind");
  const metadata = input.metadata;
  if (!isObject(metadata)) throw refuse("metadata is missing: post the ConfigMap as kubectl prints it", "metadata");
  const name = metadata.name;
  if (typeof name !== "string" || !name.startsWith(CONFIGMAP_PREFIX) || name.length === CONFIGMAP_PREFIX.length) {
    throw refuse(`the ConfigMap's name must be ${CONFIGMAP_PREFIX}<job>, not ${JSON.stringify(name)}`, "metadata.name");
  }
  const namespace = metadata.namespace === undefined ? "default" : metadata.namespace;
  if (typeof namespace !== "string" || namespace === "") throw refuse("metadata.namespace must be a name", "metadata.namespace");
  const data = input.data;
  if (!isObject(data)) throw refuse(`data is missing: the ConfigMap must carry ${CONFIGMAP_KEY}`, "data");
  const table = data[CONFIGMAP_KEY];
  if (typeof table !== "string") throw refuse(`data.${CONFIGMAP_KEY} must be the rank table as text`, `data.${CONFIGMAP_KEY}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(table);
  } catch (error) {
    throw refuse(`data.${CONFIGMAP_KEY} is not JSON: ${(error as Error).message}`, `data.${CONFIGMAP_KEY}`);
  }
  if (!isObject(parsed)) throw refuse(`data.${CONFIGMAP_KEY} must be a JSON object`, `data.${CONFIGMAP_KEY}`);
  const status = typeof parsed.status === "string" && parsed.status.trim() !== "" ? parsed.status.trim() : "unknown";
  const version = data[CONFIGMAP_VERSION_KEY];
  const resourceVersion = metadata.resourceVersion;
  const labels: Record<string, string> = {};
  if (isObject(metadata.labels)) for (const [key, value] of Object.entries(metadata.labels)) if (typeof value === "string") labels[key] = value;
  return {
    job: name.slice(CONFIGMAP_PREFIX.length),
    namespace,
    status,
    state: stateOfStatus(status),
    rankTableText: table,
    hasServers: Array.isArray(parsed.server_list) && parsed.server_list.length > 0,
    version: typeof version === "string" && version !== "" ? version : typeof resourceVersion === "string" ? resourceVersion : null,
    labels,
  };
}

/**
 * Whether a posted version is older than the stored one: the operator's versions are decimal timestamps, and
 * Kubernetes' resourceVersions are opaque, so only two decimal numbers are compared; anything else is taken as new.
 */
export function isOlderVersion(posted: string | null, stored: string | null): boolean {
  if (posted === null || stored === null || !/^\d{1,20}$/.test(posted) || !/^\d{1,20}$/.test(stored)) return false;
  return BigInt(posted) < BigInt(stored);
}
