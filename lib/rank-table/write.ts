/**
 * The canonical export: valid JSON without comments, two-space indent, a final newline, keys in the reference's
 * order (unknown fields kept, after the known ones), every scalar written as a string. Writing the output of
 * writing changes nothing.
 *
 * The table is first rebuilt in canonical form (key order, string scalars), then printed by the engine's native
 * JSON.stringify, which is an order of magnitude faster than printing by hand. One case needs the hand printer:
 * JavaScript objects list integer-like keys ("7") before all others, so an object with such an (unknown) key is
 * kept as an ordered list of entries and the document is printed by `printOrdered`.
 *
 * Version "2.0" tables (a5-model.ts) are the exception to "every scalar a string": there numbers are JSON numbers, so
 * their number fields are written as numbers (a string of digits becomes its number, the repair of RT103), their
 * other known fields as strings, and unknown fields exactly as given.
 */
import { A5_ADDRESS_FIELDS, A5_LEVEL_FIELDS, A5_NUMBER_FIELDS, A5_RANK_FIELDS, A5_ROOT_FIELDS, A5_VERSION } from "./a5-model";
import { setMember } from "./json-scanner";
import {
  DEVICE_FIELDS,
  ROOT_FIELDS,
  SERVER_FIELDS,
  SUPER_POD_FIELDS,
  SUPER_POD_SERVER_FIELDS,
  isJsonObject,
  scalarToString,
  type JsonObject,
  type JsonValue,
  type RankTableInput,
} from "./model";
import { parseWholeNumber } from "./net";

/** Key order of one level, and the shape of list items below some of its keys. */
interface Level {
  order: readonly string[];
  known: ReadonlySet<string>;
  itemLevels?: Readonly<Record<string, Level>>;
  /** "2.0" only: its fields that are JSON numbers; unknown fields keep their JSON types. */
  numbers?: ReadonlySet<string>;
}

function level(order: readonly string[], itemLevels?: Record<string, Level>, numbers?: ReadonlySet<string>): Level {
  return { order, known: new Set(order), itemLevels, numbers };
}

const SERVER_LEVEL = level(SERVER_FIELDS, { device: level(DEVICE_FIELDS) });
const SUPER_POD_LEVEL = level(SUPER_POD_FIELDS, { server_list: level(SUPER_POD_SERVER_FIELDS) });
const ROOT_LEVEL = level(ROOT_FIELDS, { server_list: SERVER_LEVEL, super_pod_list: SUPER_POD_LEVEL });
const A5_ADDRESS_LEVEL = level(A5_ADDRESS_FIELDS, undefined, A5_NUMBER_FIELDS);
const A5_LEVEL_LEVEL = level(A5_LEVEL_FIELDS, { rank_addr_list: A5_ADDRESS_LEVEL }, A5_NUMBER_FIELDS);
const A5_RANK_LEVEL = level(A5_RANK_FIELDS, { level_list: A5_LEVEL_LEVEL }, A5_NUMBER_FIELDS);
const A5_ROOT_LEVEL = level(A5_ROOT_FIELDS, { rank_list: A5_RANK_LEVEL }, A5_NUMBER_FIELDS);
/** Objects outside the known structure keep their own key order. */
const FREE_LEVEL = level([]);
/** The same below a "2.0" table, where scalars also keep their JSON types. */
const A5_FREE_LEVEL = level([], undefined, A5_NUMBER_FIELDS);

/** An object whose key order JavaScript objects cannot keep (it has an integer-like key). */
class OrderedEntries {
  constructor(readonly entries: [string, Canonical][]) {}
}

type Canonical = string | number | boolean | null | Canonical[] | { [key: string]: Canonical } | OrderedEntries;

/** Writes a rank table (any JSON value, in fact) in the canonical form. */
export function writeRankTable(table: RankTableInput): string {
  const state = { ordered: false };
  const root = table as JsonValue;
  const a5 = isJsonObject(root) && (root.version === A5_VERSION || root.version === 2);
  const canonical = canonicalize(root, "", a5 ? A5_ROOT_LEVEL : ROOT_LEVEL, state);
  return `${state.ordered ? printOrdered(canonical, "") : JSON.stringify(canonical, null, 2)}\n`;
}

function isIntegerLike(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** A "2.0" scalar: number fields as numbers (digit strings converted), other known fields as strings, the rest as is. */
function a5Scalar(value: string | number | boolean | null, key: string, parent: Level): Canonical {
  if (!parent.known.has(key)) return value;
  if (A5_NUMBER_FIELDS.has(key)) return typeof value === "string" ? (parseWholeNumber(value) ?? value) : value;
  if (typeof value === "number" || typeof value === "boolean") return key === "version" ? scalarToString(key, value) : String(value);
  return value ?? "";
}

function canonicalize(value: JsonValue, key: string, itemLevel: Level | undefined, state: { ordered: boolean }, parent?: Level): Canonical {
  if (parent?.numbers !== undefined && (value === null || typeof value !== "object")) return a5Scalar(value, key, parent);
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return scalarToString(key, value);
  // An empty string counts as absent, which is what null meant.
  if (value === null) return "";
  if (Array.isArray(value)) return value.map((item) => canonicalize(item, key, itemLevel, state, parent));
  const current = itemLevel ?? (parent?.numbers ? A5_FREE_LEVEL : FREE_LEVEL);
  const { order, known, itemLevels } = current;
  const copy: { [key: string]: Canonical } = {};
  for (const member of order) {
    const child = value[member];
    if (child !== undefined) copy[member] = canonicalize(child, member, itemLevelOf(itemLevels, member), state, current);
  }
  for (const member in value) {
    if (known.has(member)) continue;
    if (isIntegerLike(member)) return orderedEntries(value, current, state);
    setMember(copy as JsonObject, member, canonicalize(value[member]!, member, undefined, state, current) as JsonValue);
  }
  return copy;
}

/** The slow path of canonicalize for an object with an integer-like key: an explicit list of entries. */
function orderedEntries(value: JsonObject, current: Level, state: { ordered: boolean }): OrderedEntries {
  state.ordered = true;
  const { order, known, itemLevels } = current;
  const keys = order.filter((member) => value[member] !== undefined);
  for (const member in value) if (!known.has(member)) keys.push(member);
  return new OrderedEntries(keys.map((member) => [member, canonicalize(value[member]!, member, itemLevelOf(itemLevels, member), state, current)]));
}

/** The level of the list under `member`, if the structure names one: own keys only (a member called "toString" is not a level). */
function itemLevelOf(itemLevels: Level["itemLevels"], member: string): Level | undefined {
  return itemLevels !== undefined && Object.hasOwn(itemLevels, member) ? itemLevels[member] : undefined;
}

/** Prints like JSON.stringify(value, null, 2), keeping the order of OrderedEntries. */
function printOrdered(value: Canonical, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = value instanceof OrderedEntries ? value.entries : Array.isArray(value) ? undefined : Object.entries(value);
  const items = entries ?? (value as Canonical[]);
  if (items.length === 0) return entries ? "{}" : "[]";
  const inner = `${indent}  `;
  const lines = entries
    ? entries.map(([member, child]) => `${inner}${JSON.stringify(member)}: ${printOrdered(child, inner)}`)
    : (value as Canonical[]).map((child) => `${inner}${printOrdered(child, inner)}`);
  return entries ? `{\n${lines.join(",\n")}\n${indent}}` : `[\n${lines.join(",\n")}\n${indent}]`;
}
