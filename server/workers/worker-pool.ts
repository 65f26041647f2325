import { Worker, type ResourceLimits, type TransferListItem } from "node:worker_threads";
import { ZodError, type z } from "zod";
import { DomainError, type DomainErrorKind } from "@/lib/errors";

/**
 * One worker thread that runs CPU-heavy parsing off the request thread, so /api/health and every other request
 * keep their latency while a large body is checked. Jobs run one at a time; at most `maxQueued` wait (more get a
 * 429 with Retry-After). The worker has its own heap limit: a body that would exhaust it kills only the worker (the
 * job gets a 413), never the server. A job running past `timeoutMs` is stopped the same way. The worker exits after
 * `idleMs` without work, so the memory a large job used goes back to the system rather than staying with an idle
 * thread.
 */
export interface WorkerPoolOptions {
  /** Starts the worker (a `new Worker(new URL(…, import.meta.url))` the bundler can see). */
  spawn: () => Worker;
  maxQueued: number;
  timeoutMs: number;
  idleMs: number;
  /** What the job is, for error messages: "validating the rank table". */
  label: string;
}

/** What a worker posts back for a job: its value, or its error (a DomainError or a ZodError as its parts, thrown again here). */
export type WorkerAnswer =
  | { ok: true; value: unknown }
  | { ok: false; message: string; domain?: { kind: DomainErrorKind; code: string; details?: unknown }; zodIssues?: z.core.$ZodIssue[] };

/** A worker's answer for a job that threw `error` (in the worker). */
export function workerFailure(error: unknown): WorkerAnswer {
  if (error instanceof DomainError) return { ok: false, message: error.message, domain: { kind: error.kind, code: error.code, details: error.details } };
  // Issues are plain data, but may carry what failed (`input`): only what a structured clone can take goes back.
  if (error instanceof ZodError) return { ok: false, message: error.message, zodIssues: JSON.parse(JSON.stringify(error.issues)) as z.core.$ZodIssue[] };
  return { ok: false, message: error instanceof Error ? error.message : String(error) };
}

interface Job {
  message: unknown;
  transfer: TransferListItem[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The heap a worker may use: a large table needs a few hundred MB; more means the input is hostile. */
export const workerResourceLimits: ResourceLimits = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 32 };

/**
 * True when the calling module runs from TypeScript source (tests, tsx scripts) rather than a Next.js bundle: its
 * worker entry is then a `.ts` file, which Node cannot load by itself (see `sourceWorker`).
 */
export function runsFromSource(moduleUrl: string): boolean {
  return moduleUrl.endsWith(".ts");
}

/**
 * A worker on a TypeScript entry, loaded through tsx's API (an `--import tsx` flag races the entry's loading in a
 * worker). Bundled builds use `new Worker(new URL(…, import.meta.url))` directly, which the bundler compiles.
 */
export function sourceWorker(entry: URL, resourceLimits: ResourceLimits = workerResourceLimits): Worker {
  const href = JSON.stringify(entry.href);
  return new Worker(`import("tsx/esm/api").then(({ tsImport }) => tsImport(${href}, ${href}))`, { eval: true, resourceLimits });
}

export class WorkerPool {
  private worker: Worker | undefined;
  private current: Job | undefined;
  private readonly queue: Job[] = [];
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs one job; rejects with a DomainError (too_many, too_large) when it cannot be done. */
  run<T>(message: unknown, transfer: TransferListItem[] = []): Promise<T> {
    if (this.queue.length >= this.options.maxQueued) {
      return Promise.reject(
        new DomainError("too_many", `the server is busy ${this.options.label}s: retry in a moment`, { code: "busy", retryAfterSeconds: 1 }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ message, transfer, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  /** Jobs waiting (not counting the one running). */
  get queued(): number {
    return this.queue.length;
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    clearTimeout(this.idleTimer);
    const job = (this.current = this.queue.shift()!);
    const worker = (this.worker ??= this.start());
    this.timer = setTimeout(() => {
      this.fail(new DomainError("too_large", `${this.options.label} took longer than ${this.options.timeoutMs / 1000} s: the input is too large`, { code: "too_complex" }));
    }, this.options.timeoutMs);
    worker.postMessage(job.message, job.transfer);
  }

  private start(): Worker {
    const worker = this.options.spawn();
    worker.on("message", (answer: WorkerAnswer) => {
      if (this.worker !== worker) return;
      const job = this.finish();
      if (!job) return;
      if (answer.ok) job.resolve(answer.value);
      else if (answer.domain) job.reject(new DomainError(answer.domain.kind, answer.message, { code: answer.domain.code, details: answer.domain.details }));
      else if (answer.zodIssues) job.reject(new ZodError(answer.zodIssues));
      else job.reject(new Error(`${this.options.label} failed in the worker: ${answer.message}`));
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.fail(
        outOfMemory
          ? new DomainError("too_large", `${this.options.label} needs more memory than the server allows: the input is too large`, { code: "too_complex" })
          : error,
      );
    });
    worker.on("exit", () => {
      // Workers this pool stopped itself are no longer `this.worker`; one that dies on its own fails its job.
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.current) this.fail(new Error(`the worker ${this.options.label} exited`));
    });
    worker.unref();
    return worker;
  }

  private finish(): Job | undefined {
    clearTimeout(this.timer);
    const job = this.current;
    this.current = undefined;
    this.next();
    if (!this.current && this.worker) {
      const worker = this.worker;
      this.idleTimer = setTimeout(() => {
        if (this.worker === worker && !this.current) {
          this.worker = undefined;
          void worker.terminate();
        }
      }, this.options.idleMs);
      this.idleTimer.unref();
    }
    return job;
  }

  /** Stops the worker (its heap goes with it) and fails the running job; the next job starts a new worker. */
  private fail(error: unknown): void {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.timer);
    const job = this.current;
    this.current = undefined;
    if (worker) void worker.terminate();
    job?.reject(error);
    this.next();
  }
}
