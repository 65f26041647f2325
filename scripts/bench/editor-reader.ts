/**
 * `npm run bench -- editor-reader`: a saved "2.0" revision opened by the editor's worker code in Node, as the browser's
 * worker runs it (components/rank-tables/hosted-table.ts `openFile`, from the stored gzip to the summary the first rows
 * wait for), in two ways, alternated: the worker reading the text itself (fetch, gzip and UTF-8 decoding, then the
 * parse, in one thread), and the text reader (text-reader.worker.ts: a worker thread here) fetching and
 * decompressing while the worker decodes and parses the bytes it sends over a MessagePort (text-port.ts). Per run:
 * wall time to the summary, the CPU of the thread that parses (the critical path on an otherwise idle 2-core
 * machine) and of the others (the reader; Node also decompresses on its thread pool, where Chromium's
 * DecompressionStream runs in the reader's thread).
 * RANKSCOPE_BENCH_EDITOR_SIZES picks the sizes (default 131072,524288); RANKSCOPE_BENCH_RUNS the runs of each (2).
 * Needs a large heap: NODE_OPTIONS=--max-old-space-size=8192.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { isMainThread, MessageChannel, parentPort, Worker, workerData, type MessagePort } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import { generateA5Table, type JsonValue } from "../../lib/rank-table";
import { writeRankTableParts } from "../../lib/rank-table/write-parts";
import { dropHostedTable, openFile, type HostedAnswer } from "../../components/rank-tables/hosted-table";
import { sourceBytes } from "../../components/rank-tables/source-text";
import { sendBytes } from "../../components/rank-tables/text-port";
import type { BenchSection } from "./index";

const URL_PATH = "/api/v1/rank-tables/1/text";

/** Answers GET …/text with the stored gzip, as the server sends it. */
function serveGzip(gzip: Uint8Array<ArrayBuffer>): void {
  globalThis.fetch = async () => new Response(new Blob([gzip]).stream(), { headers: { "content-type": "application/gzip" } });
}

// The reader's thread: fetch and decompress, the bytes sent over the port it is given.
if (!isMainThread && (workerData as { editorReader?: boolean } | undefined)?.editorReader) {
  parentPort!.once("message", ({ gzip, bytes, port }: { gzip: Uint8Array<ArrayBuffer>; bytes: number; port: MessagePort }) => {
    serveGzip(gzip);
    void sendBytes(sourceBytes({ url: URL_PATH, bytes }), port as unknown as globalThis.MessagePort);
  });
  parentPort!.postMessage("ready");
}

/** CPU of this process's main thread so far, in ms (/proc: clock ticks of 10 ms). */
function mainThreadCpu(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const processCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** A reader thread, once it has loaded (tsx compiling this module takes seconds there; a browser's is compiled). */
async function startReader(): Promise<Worker> {
  const load = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const reader = new Worker(load, { eval: true, workerData: { editorReader: true } });
  await new Promise((resolve) => reader.once("message", resolve));
  return reader;
}

async function openOnce(gzip: Uint8Array<ArrayBuffer>, bytes: number, withReader: boolean): Promise<string> {
  const reader = withReader ? await startReader() : undefined;
  const mainBefore = mainThreadCpu();
  const allBefore = processCpu();
  const started = performance.now();
  let source: Parameters<typeof openFile>[0]["source"];
  if (reader) {
    const { port1, port2 } = new MessageChannel();
    reader.postMessage({ gzip, bytes, port: port1 }, [port1]);
    source = { port: port2 as unknown as globalThis.MessagePort };
  } else {
    serveGzip(gzip);
    source = { url: URL_PATH, bytes };
  }
  const answers: HostedAnswer[] = [];
  await openFile({ type: "open", seq: 1, source, lang: "en" }, (answer) => answers.push(answer), () => undefined);
  const wall = performance.now() - started;
  const main = mainThreadCpu() - mainBefore;
  const others = processCpu() - allBefore - main;
  await reader?.terminate();
  const hosted = answers.find((answer) => answer.type === "hosted");
  if (!hosted) throw new Error(`no table: ${JSON.stringify(answers.at(-1))}`);
  // Its validation (which waits for the first rows) is not part of this.
  dropHostedTable();
  return `${withReader ? "with the text reader" : "one thread        "}: summary after ${(wall / 1000).toFixed(1)} s wall; parsing thread ${(main / 1000).toFixed(1)} s CPU, other threads ${(others / 1000).toFixed(1)} s (load ${os.loadavg()[0]!.toFixed(1)})`;
}

async function run(): Promise<void> {
  const sizes = (process.env.RANKSCOPE_BENCH_EDITOR_SIZES ?? "131072,524288").split(",").map((size) => Number(size.trim()));
  const runs = Number(process.env.RANKSCOPE_BENCH_RUNS ?? 2);
  for (const ranks of sizes) {
    const parts = writeRankTableParts(generateA5Table({ racks: ranks / 64, npusPerRack: 64 }) as unknown as JsonValue);
    const bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    // Stored as the server stores a revision: gzipped (one buffer here; the text itself is never one string).
    const gzip = gzipSync(Buffer.concat(parts.map((part) => Buffer.from(part))));
    parts.length = 0;
    console.log(`${ranks.toLocaleString("en")} ranks: ${(bytes / 1024 / 1024).toFixed(0)} MiB of text, ${(gzip.byteLength / 1024 / 1024).toFixed(1)} MiB stored`);
    for (let round = 0; round < runs; round++) for (const withReader of [false, true]) console.log(`  ${await openOnce(gzip, bytes, withReader)}`);
  }
}

export const editorReaderBench: BenchSection = {
  name: "editor-reader",
  description: "Node: a saved 2.0 revision opened by the worker's code, reading the text itself or with the text reader thread: wall, parsing thread CPU",
  run,
};
