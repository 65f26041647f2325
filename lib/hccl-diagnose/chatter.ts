/*
 * A plog's INFO/DEBUG/EVENT/TRACE lines (`[INFO] HCCL(pid,…`), recognised without being read: the bulk of a plog,
 * skipped by the diagnoser once it knows whose file it is.
 */

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** An INFO/DEBUG/EVENT plog line (`[INFO] HCCL(pid,…`): it cannot hold a failure (every shape in patterns.ts is
 *  logged at ERROR level), only who speaks, which the file has already told. */
export function isChatter(text: string, at: number): boolean {
  return (text.startsWith("[INFO] ", at) || text.startsWith("[DEBUG] ", at) || text.startsWith("[EVENT] ", at) || text.startsWith("[TRACE] ", at)) && isDigit(text.charCodeAt(text.indexOf("(", at) + 1));
}

const CHATTER_PREFIXES = ["[INFO] ", "[DEBUG] ", "[EVENT] ", "[TRACE] "].map((prefix) => Array.from(prefix, (char) => char.charCodeAt(0)));

/** isChatter on bytes. */
export function isChatterBytes(bytes: Uint8Array, at: number): boolean {
  const prefix = CHATTER_PREFIXES.find((candidate) => candidate.every((code, index) => bytes[at + index] === code));
  if (prefix === undefined) return false;
  const open = bytes.indexOf(40, at + prefix.length);
  return open !== -1 && open < at + 40 && isDigit(bytes[open + 1] ?? 0);
}
