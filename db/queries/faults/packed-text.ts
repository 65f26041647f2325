/**
 * Rows read as one text, a line per row and its fields comma-separated, instead of a row message each: for reads of
 * thousands of rows (a series' history, the timeline's events), node-postgres spends more CPU on row messages and
 * their fields than the caller does on the data (measured: 19,000 history rows, 110 ms of Node.js CPU and 80 of
 * PostgreSQL's as rows, 30 and 90 as text; the timeline's 20,000 events: db/queries/faults/timeline.ts).
 */

/** The date_part of a timestamp as epoch ms (float8: cheap on both sides, unlike numeric `extract` or timestamp text, measured). */
export const ms = (column: string) => `date_part('epoch', ${column}) * 1000`;

/**
 * Text that may hold anything (ids, codes, messages: what a feeder sent) as a field: backslash, comma and line feed
 * escaped (\\ \c \n), so neither separator ever appears inside a field; the empty text is \e, so that an empty field
 * can mean "none" (NULL).
 */
export const escaped = (column: string) => `case when ${column} = '' then '\\e' else replace(replace(replace(${column}, '\\', '\\\\'), ',', '\\c'), E'\\n', '\\n') end`;
/** A nullable text field: empty for NULL. */
export const textOrNone = (column: string) => `coalesce(${escaped(column)}, '')`;
/** A nullable timestamp as epoch ms: empty for NULL. */
export const msOrNone = (column: string) => `coalesce((${ms(column)})::text, '')`;
/** A nullable number: empty for NULL. */
export const numberOrNone = (column: string) => `coalesce((${column})::text, '')`;

const unescapes: Record<string, string> = { "\\": "\\", c: ",", n: "\n", e: "" };
export const unescaped = (field: string) => (field.includes("\\") ? field.replace(/\\(.)/g, (_, c: string) => unescapes[c] ?? c) : field);
export const textOf = (field: string) => (field === "" ? null : unescaped(field));
export const msOf = (field: string) => (field === "" ? null : Math.round(Number(field)));
export const numberOf = (field: string) => (field === "" ? null : Number(field));
