/**
 * Streaming tar (ustar, with GNU long names and pax `path` records, which GNU tar and bsdtar write for long paths):
 * regular files one after another, each read as it arrives. A file's data must be read before the next is asked for.
 */
import { ByteReader } from "./byte-reader";

export interface TarEntry {
  path: string;
  size: number;
  data: AsyncGenerator<Uint8Array>;
}

const block = 512;
const decoder = new TextDecoder();

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new Error(`not a tar archive: size field ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

async function readAll(data: AsyncGenerator<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of data) text += decoder.decode(chunk, { stream: true });
  return text;
}

/** `path=…` of a pax extended header ("<length> path=<value>\n" records). */
function paxPath(text: string): string | null {
  for (const record of text.split("\n")) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1]!;
  }
  return null;
}

export async function* tarEntries(stream: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = ByteReader.from(stream);
  let longName: string | null = null;
  for (;;) {
    const header = await reader.exactly(block);
    if (header === null || header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = field(header, 0, 100);
    const padding = (block - (size % block)) % block;
    const data = reader.take(size);
    if (type === "L" || type === "x") {
      const text = await readAll(data);
      longName = type === "L" ? text.replace(/\0+$/, "") : (paxPath(text) ?? longName);
    } else if (type === "0" || type === "\0" || type === "7") {
      yield { path: longName ?? (prefix ? `${prefix}/${name}` : name), size, data };
      longName = null;
    } else longName = null;
    for await (const rest of data) void rest;
    if (padding) await reader.exactly(padding);
  }
  await reader.drain();
}
