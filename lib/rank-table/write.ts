/**
 * The canonical export: valid JSON without comments, two-space indent, a final newline, keys in the reference's
 * order (unknown fields kept, after the known ones), every scalar written as a string. Writing the output of
 * writing changes nothing.
 *
 * The table is first rebuilt in canonical form (key order, string scalars), then printed by the engine's native
 * JSON.stringify, which is an order of magnitude faster than printing by hand. One case needs the hand printer:
 * JavaScript objects list integer-like keys ("7") before all others, so an object with such an (unknown) key is
 * kept as an ordered list of entries and the document is printed by `printOrdered`.
 */
import { setMember } from "./json-scanner";
import {
  DEVICE_FIELDS,
  ROOT_FIELDS,
  SERVER_FIELDS,
  SUPER_POD_FIELDS,
  SUPER_POD_SERVER_FIELDS,
  scalarToString,
  type JsonObject,
  type JsonValue,
  type RankTableInput,
} from "./model";

/** Key order of one level, and the shape of list items below some of its keys. */
interface Level {
  order: readonly string[];
  known: ReadonlySet<string>;
  itemLevels?: Readonly<Record<string, Level>>;
}

function level(order: readonly string[], itemLevels?: Record<string, Level>): Level {
  return { order, known: new Set(order), itemLevels };
}

const SERVER_LEVEL = level(SERVER_FIELDS, { device: level(DEVICE_FIELDS) });
const SUPER_POD_LEVEL = level(SUPER_POD_FIELDS, { server_list: level(SUPER_POD_SERVER_FIELDS) });
const ROOT_LEVEL = level(ROOT_FIELDS, { server_list: SERVER_LEVEL, super_pod_list: SUPER_POD_LEVEL });
/** Objects outside the known structure keep their own key order. */
const FREE_LEVEL = level([]);

/** An object whose key order JavaScript objects cannot keep (it has an integer-like key). */
class OrderedEntries {
  constructor(readonly entries: [string, Canonical][]) {}
}

type Canonical = string | Canonical[] | { [key: string]: Canonical } | OrderedEntries;

/** Writes a rank table (any JSON value, in fact) in the canonical form. */
export function writeRankTable(table: RankTableInput): string {
  const state = { ordered: false };
  const canonical = canonicalize(table as JsonValue, "", ROOT_LEVEL, state);
  return `${state.ordered ? printOrdered(canonical, "") : JSON.stringify(canonical, null, 2)}\n`;
}

function isIntegerLike(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function canonicalize(value: JsonValue, key: string, itemLevel: Level | undefined, state: { ordered: boolean }): Canonical {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return scalarToString(key, value);
  // An empty string counts as absent, which is what null meant.
  if (value === null) return "";
  if (Array.isArray(value)) return value.map((item) => canonicalize(item, key, itemLevel, state));
  const { order, known, itemLevels } = itemLevel ?? FREE_LEVEL;
  const copy: { [key: string]: Canonical } = {};
  for (const member of order) {
    const child = value[member];
    if (child !== undefined) copy[member] = canonicalize(child, member, itemLevels?.[member], state);
  }
  for (const member in value) {
    if (known.has(member)) continue;
    if (isIntegerLike(member)) return orderedEntries(value, itemLevel ?? FREE_LEVEL, state);
    setMember(copy as JsonObject, member, canonicalize(value[member]!, member, undefined, state) as JsonValue);
  }
  return copy;
}

/** The slow path of canonicalize for an object with an integer-like key: an explicit list of entries. */
function orderedEntries(value: JsonObject, { order, known, itemLevels }: Level, state: { ordered: boolean }): OrderedEntries {
  state.ordered = true;
  const keys = order.filter((member) => value[member] !== undefined);
  for (const member in value) if (!known.has(member)) keys.push(member);
  return new OrderedEntries(keys.map((member) => [member, canonicalize(value[member]!, member, itemLevels?.[member], state)]));
}

/** Prints like JSON.stringify(value, null, 2), keeping the order of OrderedEntries. */
function printOrdered(value: Canonical, indent: string): string {
  if (typeof value === "string") return JSON.stringify(value);
  const entries = value instanceof OrderedEntries ? value.entries : Array.isArray(value) ? undefined : Object.entries(value);
  const items = entries ?? (value as Canonical[]);
  if (items.length === 0) return entries ? "{}" : "[]";
  const inner = `${indent}  `;
  const lines = entries
    ? entries.map(([member, child]) => `${inner}${JSON.stringify(member)}: ${printOrdered(child, inner)}`)
    : (value as Canonical[]).map((child) => `${inner}${printOrdered(child, inner)}`);
  return entries ? `{\n${lines.join(",\n")}\n${indent}}` : `[\n${lines.join(",\n")}\n${indent}]`;
}
