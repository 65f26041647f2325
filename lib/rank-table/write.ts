/**
 * The canonical export: valid JSON without comments, two-space indent, a final newline, keys in the reference's
 * order (unknown fields kept, after the known ones), every scalar written as a string. Writing the output of
 * writing changes nothing.
 */
import { DEVICE_FIELDS, ROOT_FIELDS, SERVER_FIELDS, SUPER_POD_FIELDS, SUPER_POD_SERVER_FIELDS, scalarToString, type JsonObject, type JsonValue } from "./model";

/** Key order of one level, and the shape of list items below some of its keys. */
interface Level {
  order: readonly string[];
  itemLevels?: Readonly<Record<string, Level>>;
}

const DEVICE_LEVEL: Level = { order: DEVICE_FIELDS };
const SERVER_LEVEL: Level = { order: SERVER_FIELDS, itemLevels: { device: DEVICE_LEVEL } };
const SUPER_POD_LEVEL: Level = { order: SUPER_POD_FIELDS, itemLevels: { server_list: { order: SUPER_POD_SERVER_FIELDS } } };
const ROOT_LEVEL: Level = { order: ROOT_FIELDS, itemLevels: { server_list: SERVER_LEVEL, super_pod_list: SUPER_POD_LEVEL } };
/** Objects outside the known structure keep their own key order. */
const FREE_LEVEL: Level = { order: [] };

const INDENT = "  ";

/** Writes a rank table (any JSON value, in fact) in the canonical form. */
export function writeRankTable(table: JsonValue): string {
  const parts: string[] = [];
  writeValue(parts, table, "", ROOT_LEVEL, "");
  parts.push("\n");
  return parts.join("");
}

/** The keys of an object in canonical order: the level's known keys that are present, then the rest as found. */
export function canonicalKeys(object: JsonObject, order: readonly string[]): string[] {
  const keys = order.filter((key) => Object.hasOwn(object, key));
  for (const key of Object.keys(object)) if (!order.includes(key)) keys.push(key);
  return keys;
}

function writeValue(parts: string[], value: JsonValue, key: string, level: Level | undefined, indent: string): void {
  if (typeof value === "string") {
    parts.push(JSON.stringify(value));
  } else if (typeof value === "number" || typeof value === "boolean") {
    parts.push(JSON.stringify(scalarToString(key, value)));
  } else if (value === null) {
    // An empty string counts as absent, which is what null meant.
    parts.push('""');
  } else if (Array.isArray(value)) {
    writeArray(parts, value, key, level, indent);
  } else {
    writeObject(parts, value, level ?? FREE_LEVEL, indent);
  }
}

function writeArray(parts: string[], items: JsonValue[], key: string, itemLevel: Level | undefined, indent: string): void {
  if (items.length === 0) {
    parts.push("[]");
    return;
  }
  const inner = indent + INDENT;
  parts.push("[\n");
  items.forEach((item, index) => {
    parts.push(index === 0 ? inner : `,\n${inner}`);
    writeValue(parts, item, key, itemLevel, inner);
  });
  parts.push(`\n${indent}]`);
}

function writeObject(parts: string[], object: JsonObject, level: Level, indent: string): void {
  const keys = canonicalKeys(object, level.order);
  if (keys.length === 0) {
    parts.push("{}");
    return;
  }
  const inner = indent + INDENT;
  parts.push("{\n");
  keys.forEach((key, index) => {
    parts.push(`${index === 0 ? inner : `,\n${inner}`}${JSON.stringify(key)}: `);
    writeValue(parts, object[key]!, key, level.itemLevels?.[key], inner);
  });
  parts.push(`\n${indent}}`);
}
