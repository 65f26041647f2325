import "server-only";
import type { FaultNotice } from "@/db/queries/faults";
import { ApiError } from "@/server/http/errors";
import { subscribeFaults } from "./notifications";
import { leaseStream } from "./stream-leases";

/**
 * How many event streams (GET /api/v1/events) this process holds, and how much each may have waiting. Read from the
 * environment at each request, so tests and operators change them without a rebuild:
 * - `RANKSCOPE_SSE_MAX_STREAMS`: streams per instance (process); past it a new one is refused with 503 and
 *   Retry-After, so a load balancer or the browser tries again (another instance, or later) instead of hanging.
 * - `RANKSCOPE_SSE_MAX_STREAMS_PER_USER`: streams per user or API token on all instances together (a browser opens
 *   one per fault page tab), counted in PostgreSQL (stream-leases.ts); past it 429 with Retry-After.
 * - `RANKSCOPE_SSE_BUFFER_BYTES`: bytes a stream may have queued for a client that does not read; past it the
 *   client is dropped (its connection closed), so it neither grows the server's memory nor holds up the others.
 */
export interface StreamLimits {
  perInstance: number;
  perUser: number;
  bufferBytes: number;
}

export const defaultStreamLimits: StreamLimits = { perInstance: 2000, perUser: 20, bufferBytes: 64 * 1024 };

/**
 * Seconds a refused client is told to wait: long enough for a tab to be closed or a stream's `max` to run out (the
 * streams of a killed instance stop counting within 45 s: stream-leases.ts).
 */
export const streamRetryAfterSeconds = { perInstance: 10, perUser: 30 } as const;

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n > 0 ? n : fallback;
}

export function streamLimits(env: NodeJS.ProcessEnv = process.env): StreamLimits {
  return {
    perInstance: positive(env.RANKSCOPE_SSE_MAX_STREAMS, defaultStreamLimits.perInstance),
    perUser: positive(env.RANKSCOPE_SSE_MAX_STREAMS_PER_USER, defaultStreamLimits.perUser),
    bufferBytes: positive(env.RANKSCOPE_SSE_BUFFER_BYTES, defaultStreamLimits.bufferBytes),
  };
}

interface Registry {
  total: number;
}

const globalForStreams = globalThis as typeof globalThis & { rankscopeEventStreams?: Registry };

function registry(): Registry {
  globalForStreams.rankscopeEventStreams ??= { total: 0 };
  return globalForStreams.rankscopeEventStreams;
}

/** Streams open in this process (the bench and tests read it). */
export function openStreams(): number {
  return registry().total;
}

/**
 * Takes a stream slot for `owner` (`user:<id>` or `token:<id>`), or throws the refusal: ApiError 503 when this
 * instance is full (counted in the process), 429 when the owner holds its cap of streams on all instances together
 * (counted in PostgreSQL: stream-leases.ts). Resolves to the release, which frees the slot once however often it is
 * called.
 */
export async function admitStream(owner: string, limits: StreamLimits = streamLimits()): Promise<() => void> {
  const r = registry();
  if (r.total >= limits.perInstance) {
    const seconds = streamRetryAfterSeconds.perInstance;
    throw new ApiError(503, "too_many_streams", `this server holds its limit of ${limits.perInstance} event streams: retry in ${seconds} s`, { limit: limits.perInstance, retryAfterSeconds: seconds }, { "retry-after": String(seconds) });
  }
  r.total++; // before the lease is asked for, so streams opened meanwhile cannot pass the instance's cap
  let lease: Awaited<ReturnType<typeof leaseStream>>;
  try {
    lease = await leaseStream(owner, limits.perUser);
  } catch (error) {
    r.total--;
    throw error;
  }
  if ("held" in lease) {
    r.total--;
    const seconds = streamRetryAfterSeconds.perUser;
    throw new ApiError(
      429,
      "too_many_streams",
      `you have ${lease.held} event streams open (on all servers together), the most allowed: close a tab or retry in ${seconds} s`,
      { limit: limits.perUser, open: lease.held, retryAfterSeconds: seconds },
      { "retry-after": String(seconds) },
    );
  }
  const { release } = lease;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    r.total--;
    release();
  };
}

const encoder = new TextEncoder();
const heartbeatMs = 20_000;

/** The `faults` frame of a notice, made once per notice whatever the number of streams it goes to. */
let lastNotice: FaultNotice | undefined;
let lastFrame: Uint8Array = new Uint8Array();
function faultsFrame(notice: FaultNotice): Uint8Array {
  if (notice !== lastNotice) {
    lastNotice = notice;
    lastFrame = encoder.encode(`event: faults\ndata: ${JSON.stringify(notice)}\n\n`);
  }
  return lastFrame;
}

/** Dropping a client errors its stream with this: Next.js then destroys the connection without logging a failure. */
function slowClientError(limit: number): Error {
  const error = new Error(`the client did not read ${limit} bytes of events: dropped`);
  error.name = "AbortError";
  return error;
}

export interface EventStreamOptions {
  /** `user:<id>` or `token:<id>`, for the per-user cap. */
  owner: string;
  /** Only this cluster's notices; all without. */
  clusterId?: number;
  /** The stream ends after this many seconds (the browser reconnects). */
  maxSeconds: number;
  /** The request's abort signal: the client went away. */
  signal: AbortSignal;
  limits?: StreamLimits;
}

/**
 * An event stream (`text/event-stream`) of fault notices, LISTEN in place before it is returned (so nothing committed
 * after its first byte is missed). Throws the refusal when a cap is reached (admitStream). Each stream has a bounded
 * queue (`bufferBytes`): a notice that would overflow it drops the client instead of queueing, so one that stops
 * reading costs at most that much memory and never delays the others (enqueueing never waits).
 */
export async function openEventStream({ owner, clusterId, maxSeconds, signal, limits = streamLimits() }: EventStreamOptions): Promise<Response> {
  const release = await admitStream(owner, limits);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel: () => cleanup(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limits.bufferBytes }),
  );
  let closed = false;
  let unsubscribe = () => {};
  const heartbeat = setInterval(() => send(encoder.encode(`: keep-alive\n\n`)), heartbeatMs);
  const lifetime = setTimeout(() => cleanup(true), maxSeconds * 1000);
  function cleanup(end = false) {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    unsubscribe();
    release();
    if (end) controller.close();
  }
  function send(frame: Uint8Array) {
    if (closed) return;
    if ((controller.desiredSize ?? 0) < frame.byteLength) {
      controller.error(slowClientError(limits.bufferBytes));
      cleanup();
      return;
    }
    controller.enqueue(frame);
  }
  signal.addEventListener("abort", () => cleanup());
  send(encoder.encode(`retry: 3000\n: connected\n\n`));
  try {
    unsubscribe = await subscribeFaults(
      (notice) => {
        if (clusterId === undefined || notice.clusterId === clusterId) send(faultsFrame(notice));
      },
      () => send(encoder.encode(`event: resync\ndata: ${JSON.stringify({ at: Date.now() })}\n\n`)),
    );
  } catch (error) {
    cleanup();
    throw error;
  }
  if (closed) unsubscribe(); // the client left while LISTEN was being set up
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}
