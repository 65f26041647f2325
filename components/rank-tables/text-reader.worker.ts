/// <reference lib="webworker" />
/**
 * The text reader: fetches or reads a table's text, decompresses it, drops the whitespace between its tokens, and
 * hands its bytes to the validation worker over a port (text-port.ts) while that worker decodes and parses, so the two
 * run on two cores. Started by the page for one open (use-validation.ts) and stopped after it.
 */
import { compactPieces, sourceBytes, type RemoteText } from "./source-text";
import { sendBytes } from "./text-port";

export interface ReaderRequest {
  source: Blob | RemoteText;
  port: MessagePort;
}

self.onmessage = (event: MessageEvent<ReaderRequest>) => {
  const { source, port } = event.data;
  // Compacted here, on this core: the parser then decodes and parses half as many characters.
  void sendBytes(compactPieces(sourceBytes(source)), port);
};
