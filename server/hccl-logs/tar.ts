/**
 * A small streaming tar reader (POSIX ustar, GNU long names, pax `path`): bytes in, entries out, never holding more
 * than one 512-byte header. Enough for the archives SREs make of log directories (`tar czf logs.tgz node*`); we keep
 * it here rather than add a dependency for ~100 lines.
 */
const BLOCK = 512;

export interface TarHandlers {
  /** A regular file starts; its bytes follow through data(). */
  file(name: string, size: number): void;
  data(bytes: Uint8Array): void;
  /** The current file ended. */
  end(): void;
}

function text(bytes: Uint8Array, from: number, length: number): string {
  const slice = bytes.subarray(from, from + length);
  const zero = slice.indexOf(0);
  return new TextDecoder().decode(zero === -1 ? slice : slice.subarray(0, zero));
}

function sizeOf(header: Uint8Array): number {
  if ((header[124]! & 0x80) !== 0) {
    // base-256 (GNU) for sizes of 8 GiB and more
    let size = 0;
    for (let index = 125; index < 136; index++) size = size * 256 + header[index]!;
    return size;
  }
  const octal = text(header, 124, 12).trim();
  return octal === "" ? 0 : parseInt(octal, 8);
}

/** Feeds a tar stream through push(); call finish() at the end. Malformed input raises an Error saying where. */
export class TarReader {
  private header = new Uint8Array(BLOCK);
  private headerFill = 0;
  /** Bytes of the current entry still to come, then padding to skip. */
  private remaining = 0;
  private padding = 0;
  private kind: "file" | "longname" | "pax" | "skip" = "skip";
  private meta: Uint8Array[] = [];
  private nextName: string | undefined;
  private offset = 0;
  private ended = false;

  constructor(private readonly handlers: TarHandlers) {}

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.ended) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        this.consume(chunk.subarray(at, at + take));
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.closeEntry();
        continue;
      }
      if (this.padding > 0) {
        const skip = Math.min(this.padding, chunk.length - at);
        this.padding -= skip;
        at += skip;
        continue;
      }
      const take = Math.min(BLOCK - this.headerFill, chunk.length - at);
      this.header.set(chunk.subarray(at, at + take), this.headerFill);
      this.headerFill += take;
      at += take;
      if (this.headerFill === BLOCK) {
        this.headerFill = 0;
        this.readHeader();
      }
    }
    this.offset += chunk.length;
  }

  finish(): void {
    if (this.remaining > 0 || this.headerFill > 0) throw new Error(`the tar archive ends in the middle of an entry (at byte ${this.offset})`);
  }

  private readHeader(): void {
    const header = this.header;
    if (header.every((byte) => byte === 0)) {
      this.ended = true;
      return;
    }
    if (text(header, 257, 5) !== "ustar" && !/^[0-7 \0]+$/.test(text(header, 124, 12) || "0")) {
      throw new Error(`not a tar archive (bad header at byte ${this.offset})`);
    }
    const size = sizeOf(header);
    const type = String.fromCharCode(header[156]!);
    const prefix = text(header, 257, 6).startsWith("ustar") ? text(header, 345, 155) : "";
    const name = this.nextName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    this.remaining = size;
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    this.meta = [];
    if (type === "L") this.kind = "longname";
    else if (type === "x") this.kind = "pax";
    else {
      this.nextName = undefined;
      this.kind = type === "0" || type === "\0" || type === "7" ? "file" : "skip";
      if (this.kind === "file") this.handlers.file(name, size);
    }
    if (size === 0) this.closeEntry();
  }

  private consume(bytes: Uint8Array): void {
    if (this.kind === "file") this.handlers.data(bytes);
    else if (this.kind === "longname" || this.kind === "pax") this.meta.push(bytes.slice());
  }

  private closeEntry(): void {
    if (this.kind === "file") this.handlers.end();
    else if (this.kind === "longname" || this.kind === "pax") {
      const joined = new TextDecoder().decode(Buffer.concat(this.meta));
      if (this.kind === "longname") this.nextName = joined.replace(/\0.*$/s, "");
      else {
        const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(joined);
        if (path) this.nextName = path[1];
      }
    }
    this.kind = "skip";
  }
}
