/** PostgreSQL takes at most 65,535 parameters per statement; rows are inserted in chunks well under that. */
const rowsPerInsert = 2_000;

/** Inserts `rows` a chunk at a time (each chunk one statement) and returns what the inserts return, in order. */
export async function insertInChunks<Row, Result>(rows: Row[], insert: (chunk: Row[]) => Promise<Result[]>): Promise<Result[]> {
  const results: Result[] = [];
  for (let i = 0; i < rows.length; i += rowsPerInsert) results.push(...(await insert(rows.slice(i, i + rowsPerInsert))));
  return results;
}
