/**
 * Worker-thread entry of server/rank-table-validation.ts: validates one rank table per message. The text arrives as
 * UTF-8 bytes (transferred, not copied) and is decoded here, so the request thread never holds the decoded string.
 */
import { parentPort } from "node:worker_threads";
import { validateRankTable, type Lang } from "@/lib/rank-table";

parentPort!.on("message", ({ bytes, lang }: { bytes: Uint8Array; lang: Lang }) => {
  try {
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    parentPort!.postMessage({ ok: true, value: validateRankTable(text, { lang }) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
