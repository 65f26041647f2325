/**
 * A rank table as the Kubernetes ConfigMap MindCluster's Ascend Operator reads and writes: name
 * `rings-config-<job>`, label `ring-controller.atlas: ascend-910`, the table under the data key `hccl.json`
 * (component/ascend-operator/pkg/controllers/v1/consts.go). Written with the `yaml` package, the table as a literal
 * block so it stays byte-for-byte the canonical JSON.
 */
import { Document, Scalar } from "yaml";

export const CONFIGMAP_PREFIX = "rings-config-";
export const CONFIGMAP_KEY = "hccl.json";
export const RING_CONTROLLER_LABEL = { "ring-controller.atlas": "ascend-910" } as const;

/** A Kubernetes object name (DNS-1123 subdomain label) from any text: "Job A/1" → "job-a-1". */
export function toJobName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 253 - CONFIGMAP_PREFIX.length)
    .replace(/-+$/, "");
  return name || "job";
}

export interface ConfigMapOptions {
  /** The training job's name; normalised with toJobName. */
  job: string;
  namespace?: string | undefined;
}

/** The ConfigMap YAML for a canonical rank table text. */
export function toConfigMap(canonicalText: string, options: ConfigMapOptions): string {
  const metadata: Record<string, unknown> = { name: `${CONFIGMAP_PREFIX}${toJobName(options.job)}` };
  if (options.namespace) metadata.namespace = toJobName(options.namespace);
  metadata.labels = { ...RING_CONTROLLER_LABEL };
  const document = new Document({ apiVersion: "v1", kind: "ConfigMap", metadata, data: { [CONFIGMAP_KEY]: canonicalText } });
  const value = document.getIn(["data", CONFIGMAP_KEY], true) as Scalar;
  value.type = Scalar.BLOCK_LITERAL;
  return document.toString({ lineWidth: 0 });
}
