/**
 * The editor's open path for a table the worker keeps (components/rank-tables/hosted-table.ts, issue 21 item 3),
 * measured in Node per thread:
 *
 * - worker: parse the canonical (two-space) text pushed in 64 KiB pieces, as the file is read (the text is written in
 *   parts and never joined: at 524,288 ranks it is longer than a string can be; UTF-8 decoding is not included),
 *   derive the rows and tree, and the summary (the first rows can be answered then); then validate;
 * - main thread: receive the summary (a structured clone, as postMessage does);
 * - per range: the worker's rows for 128 rows and their clone (what one scroll step into unfetched rows costs);
 * - per edit: the worker's apply + rows patch (its validation is the large bench's figure).
 */
import type { JsonValue } from "../../lib/rank-table";
import { generateA5Table } from "../../lib/rank-table";
import { IncrementalValidator } from "../../lib/rank-table/incremental";
import { StreamingTableParser } from "../../lib/rank-table/stream-parse";
import { writeRankTableParts } from "../../lib/rank-table/write-parts";
import { TableHost } from "../../lib/rank-table-workspace/table-host";
import { fmt, timed, type Timing } from "./cpu-timed";

const PIECE = 64 * 1024;



/** The table's canonical text in parts, and its size in UTF-16 units (ASCII: bytes). */
function textParts(ranks: number): { parts: string[]; length: number } {
  const table = generateA5Table({ racks: ranks / 64, npusPerRack: 64 }) as unknown as JsonValue;
  const parts = writeRankTableParts(table);
  return { parts, length: parts.reduce((sum, part) => sum + part.length, 0) };
}

export function hostedOpenFigures(ranks: number): void {
  const { parts, length } = textParts(ranks);
  console.log(`  hosted open (the worker keeps the table): ${(length / 1024 / 1024).toFixed(0)} MiB of two-space text in ${parts.length} parts`);
  const parsed = timed(() => {
    const parser = new StreamingTableParser();
    for (const part of parts) for (let at = 0; at < part.length; at += PIECE) parser.push(part.slice(at, at + PIECE));
    return parser.finish().value;
  });
  parts.length = 0;
  const hosted = timed(() => new TableHost(parsed.value));
  const host = hosted.value;
  const summarised = timed(() => host.summary());
  const received = timed(() => structuredClone(summarised.value));
  console.log(`    worker: streamed parse ${fmt(parsed)}, rows and tree ${fmt(hosted)}, summary ${fmt(summarised)} → first rows can be asked after ${(parsed.cpu + hosted.cpu + summarised.cpu).toFixed(0)} ms CPU`);
  console.log(`    main thread: receive the summary (${summarised.value.pods.reduce((sum, pod) => sum + pod.servers.length, 0)} servers, structured clone) ${fmt(received)}`);
  const validated = timed(() => new IncrementalValidator().validate(host.table));
  console.log(`    worker, after the first rows: validate (the incremental validator's first, full run) ${fmt(validated)} (${validated.value.issues.length} findings) → report after ${(parsed.cpu + hosted.cpu + summarised.cpu + validated.cpu).toFixed(0)} ms CPU`);
  const ranges: Timing[] = [];
  for (const from of [0, Math.floor(ranks / 2), ranks - 128]) ranges.push(timed(() => structuredClone(host.rows(undefined, from, from + 128))));
  console.log(`    per range of 128 rows (worker slice + clone): ${ranges.map(fmt).join(", ")}`);
  let value = 0;
  const edits: Timing[] = [];
  for (let run = 0; run < 3; run++) edits.push(timed(() => host.edit({ type: "setRank", rank: Math.floor(ranks / 3), field: "device_port", value: String(17_000 + value++) })));
  console.log(`    per edit, worker apply + rows patch (validation not included): ${edits.map(fmt).join(", ")}`);
  const written = timed(() => writeRankTableParts(host.table).length);
  console.log(`    export/save: the text written in ${written.value} parts (for a Blob) ${fmt(written)}`);
}
