import { hash } from "node:crypto";

/**
 * A stable event id. A source that names its events keeps its name (`<source>:<id>`), so re-sending is recognised;
 * otherwise the id is derived from what makes the event itself (cluster, target, kind, code, source, begin time),
 * so the same event re-sent is the same event.
 */
export function stableEventId(parts: {
  sourceId?: string | null | undefined;
  source: string;
  cluster: string;
  targetKey: string;
  kind: string;
  code: string | null;
  beganAt: number;
}): string {
  if (parts.sourceId) return `${parts.source}:${parts.sourceId}`;
  // One-shot hash: no Hash object per event (ingestion derives 1,000 ids a batch); the same digest as before.
  const digest = hash("sha256", `${parts.cluster}\u0000${parts.targetKey}\u0000${parts.kind}\u0000${parts.code ?? ""}\u0000${parts.source}\u0000${parts.beganAt}`, "base64url").slice(0, 22);
  return `${parts.source}~${digest}`;
}
