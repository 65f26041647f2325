import type { JsonValue } from "@/lib/rank-table";
import { writeRankTableParts } from "@/lib/rank-table/write-parts";

/**
 * The table's canonical text as a Blob of the writer's parts, never one string (a 524,288-rank table's is longer than
 * a string can be): what the export downloads and a large save uploads. `jsonString`: escaped as a JSON string's
 * inside, for a JSON save body.
 */
export function rankTableBlob(table: JsonValue, jsonString = false): Blob {
  const parts = writeRankTableParts(table);
  // Escaping is per character, so each part escaped on its own joins to the whole text escaped.
  return new Blob(jsonString ? parts.map((part) => JSON.stringify(part).slice(1, -1)) : parts, { type: "application/json" });
}
