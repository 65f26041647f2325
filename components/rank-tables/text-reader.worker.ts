/// <reference lib="webworker" />
/**
 * The text reader: fetches or reads a table's text, decompresses it, drops the whitespace between its tokens while
 * the parser lags, and hands its bytes to the validation worker over a port (text-port.ts) while that worker decodes
 * and parses, so the two run on two cores. Started by the page for one open (use-validation.ts) and stopped after it.
 */
import { JsonCompactor } from "@/lib/rank-table/compact-json";
import { sourceBytes, type RemoteText } from "./source-text";
import { IN_FLIGHT_BYTES, sendBytes } from "./text-port";

export interface ReaderRequest {
  source: Blob | RemoteText;
  port: MessagePort;
}

self.onmessage = (event: MessageEvent<ReaderRequest>) => {
  const { source, port } = event.data;
  // Compacted here, on this core, while the parser lags: it then decodes and parses fewer characters.
  void sendBytes(sourceBytes(source), port, IN_FLIGHT_BYTES, new JsonCompactor());
};
