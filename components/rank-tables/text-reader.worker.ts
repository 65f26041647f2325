/// <reference lib="webworker" />
/**
 * The text reader: fetches or reads a table's text, decompresses it, drops the whitespace between its tokens while
 * the parser lags (with more than 2 cores), and hands its bytes to the validation worker over a port (text-port.ts)
 * while that worker decodes and parses, so the two run on two cores. Started by the page for one open
 * (use-validation.ts) and stopped after it.
 */
import { JsonCompactor } from "@/lib/rank-table/compact-json";
import { sourceBytes, type RemoteText } from "./source-text";
import { IN_FLIGHT_BYTES, sendBytes } from "./text-port";

export interface ReaderRequest {
  source: Blob | RemoteText;
  port: MessagePort;
}

/**
 * Compacting pays only with a core to spare: the reader's byte loop costs about twice the parser's time it saves. On 2
 * cores, which the parser, the collector's helpers, the browser and the page already share, it was a loss (Chromium,
 * `npm run bench -- editor-workers`, 524,288 ranks, alternated, load 12–14: the parser's thread to the first rows
 * 5.3–6.2 s with it, 6.6–7.1 s without; the reader's 5.0–6.8 s against 1.4–1.7 s; all threads to the report 22.6–26.0 s
 * against 19.6–20.8 s).
 */
const COMPACT_FROM_CORES = 3;

self.onmessage = (event: MessageEvent<ReaderRequest>) => {
  const { source, port } = event.data;
  // Compacted here, on a core of its own, while the parser lags: it then decodes and parses fewer characters.
  const compactor = navigator.hardwareConcurrency >= COMPACT_FROM_CORES ? new JsonCompactor() : undefined;
  void sendBytes(sourceBytes(source), port, IN_FLIGHT_BYTES, compactor);
};
