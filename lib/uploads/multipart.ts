/**
 * Streaming multipart/form-data (RFC 7578): parts one after another, each body read as it arrives, so an upload of
 * hundreds of MB is never held whole. A part's body must be read to its end before the next part is asked for.
 */
import { ascii, ByteReader } from "./byte-reader";

export interface MultipartPart {
  /** The form field's name. */
  name: string | null;
  /** The file name, for file fields. */
  filename: string | null;
  contentType: string | null;
  body: AsyncGenerator<Uint8Array>;
}

/** The boundary of a multipart Content-Type, or null when it is not multipart/form-data. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

function headerParam(header: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, "i").exec(header);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!;
}

export async function* multipartParts(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<MultipartPart> {
  const reader = ByteReader.from(body);
  const decoder = new TextDecoder();
  // The preamble ends at the first boundary line.
  for await (const preamble of reader.until(ascii(`--${boundary}`))) void preamble;
  const delimiter = ascii(`\r\n--${boundary}`);
  for (;;) {
    const after = await reader.exactly(2);
    if (after === null) throw new Error("the multipart body ended without its closing boundary");
    if (after[0] === 0x2d && after[1] === 0x2d) break; // "--": the closing boundary
    let head = "";
    for await (const chunk of reader.until(ascii("\r\n\r\n"))) {
      head += decoder.decode(chunk);
      if (head.length > 16 * 1024) throw new Error("a multipart part has more than 16 KiB of headers");
    }
    const headers = new Map<string, string>();
    for (const line of head.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get("content-disposition") ?? "";
    const part = reader.until(delimiter);
    yield { name: headerParam(disposition, "name"), filename: headerParam(disposition, "filename"), contentType: headers.get("content-type") ?? null, body: part };
    // Whatever the consumer left of the part is skipped.
    for await (const rest of part) void rest;
  }
  await reader.drain();
}
