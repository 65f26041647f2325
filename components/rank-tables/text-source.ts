/**
 * The text of a table being opened (a file, or a saved revision read from the server) as a stream of decoded string
 * chunks, for the worker's streaming parser (hosted-table.ts). The page opens it and transfers the stream to the worker
 * when the browser can transfer streams: the gzip and UTF-8 decoding then run on the page's thread, beside the worker's
 * parse instead of before it (at 524,288 ranks, 829 MiB through DecompressionStream and TextDecoder: about 4 s of CPU
 * in Node, on the worker's critical path while the page's core was idle). Where it cannot, the worker opens it itself.
 */

/**
 * A saved revision's text read from the server (GET /rank-tables/{id}/text) as it arrives: the page never holds it (a
 * 524,288-rank table's is about 830 MiB). `bytes`: its decoded length, for the progress.
 */
export interface RemoteText {
  url: string;
  bytes: number;
}

/** A source's text as it arrives, and about how many characters it has (bytes of UTF-8: for the progress only). */
export interface TextSource {
  stream: ReadableStream<string>;
  size: number;
}

/** The source's text as decoded chunks; a revision the server does not answer rejects. */
export async function openTextSource(source: Blob | RemoteText): Promise<TextSource> {
  if (source instanceof Blob) return { stream: source.stream().pipeThrough(new TextDecoderStream()), size: source.size };
  // A revision stored gzipped comes as stored (a fourteenth of the text at 524,288 ranks) and is decoded here as it
  // arrives; a plain one as its text.
  const response = await fetch(source.url, { headers: { accept: "application/gzip, application/json;q=0.9" } });
  if (!response.ok || !response.body) throw new Error(`${source.url} answered ${response.status}`);
  const gzip = response.headers.get("content-type")?.startsWith("application/gzip");
  const bytes = gzip ? response.body.pipeThrough(new DecompressionStream("gzip")) : response.body;
  return { stream: bytes.pipeThrough(new TextDecoderStream()), size: source.bytes };
}

let transferable: boolean | undefined;

/** Whether this browser can post a ReadableStream to a worker (transferable streams; not every browser can). */
export function canTransferStreams(): boolean {
  if (transferable === undefined) {
    try {
      const probe = new ReadableStream();
      structuredClone(probe, { transfer: [probe] });
      transferable = true;
    } catch {
      transferable = false;
    }
  }
  return transferable;
}
