/**
 * The canonical text of a table (write.ts) as a list of pieces, none of them the whole text: a 524,288-rank "2.0"
 * table writes to about 830 MiB, longer than a JavaScript string can be, but a Blob can be made of the pieces (export,
 * drafts, save; issue 21 item 3). The pieces joined are exactly writeRankTable's text.
 *
 * The largest array member of the top-level object (rank_list, server_list) is written in batches: each batch as the
 * table with only that batch in the array, from which the array's inside is cut; the text around the array is the
 * same for every batch (the members before and after it do not change), which is checked, so any table the cut
 * cannot handle is written whole instead.
 */
import { isJsonObject, type JsonValue } from "./model";
import { writeRankTable } from "./write";

/** Elements written per piece: a few MiB of text for "2.0" ranks. */
export const WRITE_BATCH = 2048;

export function writeRankTableParts(table: JsonValue, batch = WRITE_BATCH): string[] {
  try {
    return [...rankTableParts(table, batch)];
  } catch (error) {
    if (error instanceof UncutTable) return [writeRankTable(table)];
    throw error;
  }
}

/** A batch did not cut as the first ones did, after pieces were given: the table is to be written whole. */
export class UncutTable extends Error {}

/**
 * The same pieces one at a time, so that only one is held (the server's streamed save gzips each as it comes).
 * Throws UncutTable when a later batch does not cut (never seen: the check is a safety net).
 */
export function* rankTableParts(table: JsonValue, batch = WRITE_BATCH): Generator<string> {
  const whole = () => [writeRankTable(table)];
  if (!isJsonObject(table)) return yield* whole();
  let key: string | undefined;
  for (const member of Object.keys(table)) {
    const value = table[member];
    if (Array.isArray(value) && value.length > batch && (key === undefined || value.length > (table[key] as JsonValue[]).length)) key = member;
  }
  if (key === undefined) return yield* whole();
  const items = table[key] as JsonValue[];
  const withItems = (part: JsonValue[]) => {
    const copy = { ...table };
    Object.defineProperty(copy, key, { value: part, enumerable: true, writable: true, configurable: true });
    return writeRankTable(copy);
  };
  const empty = withItems([]);
  const marker = `${JSON.stringify(key)}: []`;
  const at = empty.indexOf(marker);
  if (at < 0 || empty.indexOf(marker, at + 1) >= 0) return yield* whole();
  const before = `${empty.slice(0, at)}${JSON.stringify(key)}: [\n`;
  const closing = empty.slice(at + marker.length);
  // The indent of the array's closing bracket: the member's own.
  const indent = empty.slice(empty.lastIndexOf("\n", at) + 1, at);
  const after = `\n${indent}]${closing}`;
  yield before;
  for (let from = 0; from < items.length; from += batch) {
    const text = withItems(items.slice(from, from + batch));
    if (!text.startsWith(before) || !text.endsWith(after)) throw new UncutTable("the table cannot be written in parts");
    yield `${from === 0 ? "" : ",\n"}${text.slice(before.length, text.length - after.length)}`;
  }
  yield after;
}
