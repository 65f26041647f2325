/**
 * A request body on its way to the rank-table worker (server/rank-table-worker.ts), either as one buffer or, when it
 * came without a Content-Length, as chunks already queued on a MessagePort.
 *
 * A chunked body's size is only known at its end, so it cannot be read into one buffer allocated up front, and
 * gathered as it arrived (a list of the socket's 64 KiB chunks on the request thread) it held up to 128 MiB of
 * external memory there until the worker got it: V8 answered that with a full collection every few hundred
 * milliseconds while the body streamed in, and /api/health waited behind them (the hostile-input suite's
 * "over the limit, chunked" was the request beside every slow poll; one landing CI failed on a 123 ms poll). A
 * server's event loop, with a heap of 1.5M small objects as ballast, receiving 128 MiB chunked: max lag 95–298 ms
 * with the chunks gathered, 18–65 ms with each chunk transferred out as it arrived (load average 11–12, alternated).
 * So the chunks are copied into blocks of their own and transferred into a port's queue, which holds them outside
 * the request thread's heap; the worker is given the port only once the body has ended (the job is queued then, so a
 * slow sender never holds the worker), and drains it at once.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type TransferListItem } from "node:worker_threads";

export interface PortedBody {
  port: MessagePort;
  byteLength: number;
}

export type WorkerBody = Uint8Array | PortedBody;

/**
 * The size of the blocks a ported body moves in. Past glibc's mmap threshold (128 KiB, fixed by the server's
 * MALLOC_TRIM_THRESHOLD_, scripts/server-node-flags.ts), each is mapped and unmapped on its own, so 128 MiB passing
 * through leaves no freed heap behind: moved as the socket's 64 KiB chunks, the server's settled RSS after the hostile
 * suite's round varied from -19 to +19 % (three runs; its bound is +20 %).
 */
const blockBytes = 1024 * 1024;

/**
 * The bytes as a buffer of their own (a body larger than Node's small-buffer pool already is one), to transfer: a
 * copy unless they are all of theirs. Not `bytes.slice()`, which on a Buffer (a Node stream's chunk) is a view of the
 * same memory, so the transfer would take the whole shared buffer and the worker could not read the message.
 */
export function owned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** What to transfer with a job carrying `body`. */
export function bodyTransfer(body: WorkerBody): TransferListItem[] {
  return body instanceof Uint8Array ? [body.buffer as ArrayBuffer] : [body.port];
}

/**
 * Request thread: reads `chunks` (the limit is theirs to enforce: bodyChunks, server/http/body.ts). A body of at most
 * `keepUpTo` bytes comes back as one buffer; a longer one is copied into blocks moved into a port's queue as they
 * fill. When reading fails (a 413 past the limit, a client gone), whatever was queued is taken back and dropped.
 */
export async function portedBody(chunks: AsyncIterable<Uint8Array>, keepUpTo: number): Promise<WorkerBody> {
  const head: Uint8Array[] = [];
  let size = 0;
  let channel: MessageChannel | undefined;
  let block: Uint8Array | undefined;
  let filled = 0;
  const flush = () => {
    if (!block || filled === 0) return;
    channel!.port1.postMessage(block.subarray(0, filled), [block.buffer as ArrayBuffer]);
    block = undefined;
    filled = 0;
  };
  const post = (chunk: Uint8Array) => {
    for (let at = 0; at < chunk.byteLength; ) {
      block ??= new Uint8Array(blockBytes);
      const count = Math.min(chunk.byteLength - at, blockBytes - filled);
      block.set(chunk.subarray(at, at + count), filled);
      filled += count;
      at += count;
      if (filled === blockBytes) flush();
    }
  };
  try {
    for await (const value of chunks) {
      size += value.byteLength;
      if (!channel && size <= keepUpTo) {
        head.push(value);
        continue;
      }
      if (!channel) {
        channel = new MessageChannel();
        head.splice(0).forEach(post);
      }
      post(value);
    }
  } catch (error) {
    if (channel) {
      channel.port1.close();
      // Received here, the queued blocks become garbage V8 knows the size of; left in a closed port they stayed
      // allocated until a collection happened to take the port (128 MiB behind a small object: the hostile suite's
      // server kept some 90 MB more after each round of over-limit chunked bodies).
      while (receiveMessageOnPort(channel.port2));
      channel.port2.close();
    }
    throw error;
  }
  if (!channel) return Buffer.concat(head, size);
  flush();
  channel.port1.close();
  return { port: channel.port2, byteLength: size };
}

/** Worker: the body's bytes, one buffer (a ported body's chunks were all queued before the job was sent). */
export function gatheredBody(body: WorkerBody): Uint8Array {
  if (body instanceof Uint8Array) return body;
  const bytes = new Uint8Array(body.byteLength);
  let at = 0;
  for (let message = receiveMessageOnPort(body.port); message; message = receiveMessageOnPort(body.port)) {
    const chunk = message.message as Uint8Array;
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  body.port.close();
  if (at !== body.byteLength) throw new Error(`the body arrived with ${at} of its ${body.byteLength} bytes`);
  return bytes;
}
