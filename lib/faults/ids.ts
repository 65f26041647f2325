import { createHash } from "node:crypto";

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
  const digest = createHash("sha256")
    .update([parts.cluster, parts.targetKey, parts.kind, parts.code ?? "", parts.source, String(parts.beganAt)].join("\u0000"))
    .digest("base64url")
    .slice(0, 22);
  return `${parts.source}~${digest}`;
}
