/** Helpers for tests: the seed's two example tables (comments removed) and small edits by JSON Pointer. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isJsonObject, type JsonObject, type JsonValue } from "../model";
import { parseRankTable } from "../parse";
import { splitPointer } from "../pointer";
import { cloneJson } from "../repair";

export function fixtureText(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), "utf8");
}

function fixtureValue(name: string): JsonObject {
  const value = parseRankTable(fixtureText(name)).value;
  if (!isJsonObject(value)) throw new Error(`fixture ${name} is not an object`);
  return value;
}

const SUPER_POD = fixtureValue("seed-super-pod.jsonc");
const AI_SERVER = fixtureValue("seed-ai-server.jsonc");

/** The seed's "1.2" example: 2 super pods × 2 servers × 4 devices. */
export function superPodTable(): JsonObject {
  return cloneJson(SUPER_POD) as JsonObject;
}

/** The seed's "1.0" example: 2 servers × 2 devices. */
export function aiServerTable(): JsonObject {
  return cloneJson(AI_SERVER) as JsonObject;
}

/** A copy of `table` with fields set (or, with undefined, removed) at the given pointers. */
export function edit(table: JsonObject, changes: Record<string, JsonValue | undefined>): JsonObject {
  const copy = cloneJson(table) as JsonObject;
  for (const [pointer, value] of Object.entries(changes)) {
    const segments = splitPointer(pointer);
    const last = segments.pop()!;
    let parent: JsonValue = copy;
    for (const segment of segments) parent = (parent as Record<string, JsonValue>)[segment]!;
    if (Array.isArray(parent)) {
      if (value === undefined) parent.splice(Number(last), 1);
      else parent[Number(last)] = value;
    } else if (value === undefined) {
      delete (parent as JsonObject)[last];
    } else {
      (parent as JsonObject)[last] = value;
    }
  }
  return copy;
}
