/// <reference lib="webworker" />
/**
 * The text reader: fetches or reads a table's text, decompresses and decodes it, and hands it to the validation worker
 * over a port (text-port.ts) while that worker parses, so the two run on two cores. Started by the page for one open
 * (use-validation.ts) and stopped after it.
 */
import { sourceText, type RemoteText } from "./source-text";
import { sendText } from "./text-port";

export interface ReaderRequest {
  source: Blob | RemoteText;
  port: MessagePort;
}

self.onmessage = (event: MessageEvent<ReaderRequest>) => {
  const { source, port } = event.data;
  void sendText(sourceText(source), port);
};
