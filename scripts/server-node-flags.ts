import { bodyLimitRules } from "@/server/http/body-limits";

/**
 * Node flags of the console's server process (scripts/serve.ts), and of the ingestion bench's route process so that
 * it measures what runs. A larger young generation (64 MB semi-spaces instead of Node's 16 MB): a fault batch's
 * objects (1,000 parsed events, their rows and parameters) live across several database round trips, so with the
 * default most of them survived a scavenge or two and were copied, or promoted and collected again by a full GC;
 * with 4 batches in flight the route process spent about a fifth less CPU per event with it (npm run bench -- faults).
 * The cost is up to ~150 MB more memory at peak, and it stays: the young generation, once grown, stays committed.
 * In the hostile-input suite (issue 13, one round, memory measured from a fresh start, load average 7-19) the server's
 * RSS went from 239 to 459 MB with this flag and from 208 to 312 MB without it; measured as the suite now does
 * (after a warm-up round) it comes back either way (425 → 450 MB with the flag).
 */
export const serverNodeFlags = ["--max-semi-space-size=64"];

/**
 * Loaded into the server process (scripts/serve.ts's Next.js, and the fault-injection suite's app process, so that
 * it runs what production runs): peer-address.mjs stamps each request with its connection's address and scheme,
 * which Next.js does not expose (server/auth/request.ts reads them); body-limit.mjs ends each API request's body
 * just past its route's limit, before Next.js buffers it (the limits as JSON); query-limit.mjs refuses a query string
 * of more parameters than any page or call needs (Next.js's parsing is quadratic in them); stalled-streams.mjs closes
 * an event stream's connection once its client has read nothing for a while. NODE_OPTIONS rather than arguments, so
 * that processes Next.js forks (the dev server's) load them too.
 * MALLOC_ARENA_MAX=2 (unless set): glibc gives each thread that allocates its own malloc arena and keeps what it
 * freed there, so the memory of large bodies handled in the rank-table worker thread stayed with the process. In the
 * hostile-input suite, after the same round twice, RSS grew +12 to +20 % with the default and -7 to -2 % with 2 arenas.
 * MALLOC_TRIM_THRESHOLD_=65536 (unless set): glibc otherwise raises its trim threshold to twice the largest block it
 * has mmapped and freed (up to 64 MB per arena), and keeps that much freed memory at each arena's top. Once the
 * worker's large bodies had gone through, the server's idle RSS after a hostile round varied by up to 130 MB with
 * V8's heap unchanged (+6 to +23 % after the same round twice, one landing CI failed on it); with a fixed threshold, in
 * four rounds, +1 to +8 %. Setting it also fixes the mmap threshold at its 128 KiB default, so large buffers go back when freed.
 */
export function serverPreloadEnv(nodeOptions = process.env.NODE_OPTIONS): { NODE_OPTIONS: string; RANKSCOPE_BODY_LIMITS: string; MALLOC_ARENA_MAX: string; MALLOC_TRIM_THRESHOLD_: string } {
  const preloads = ["./peer-address.mjs", "./body-limit.mjs", "./query-limit.mjs", "./stalled-streams.mjs"].map((file) => `--import ${JSON.stringify(new URL(file, import.meta.url).href)}`);
  return {
    NODE_OPTIONS: [nodeOptions, ...preloads].filter(Boolean).join(" "),
    RANKSCOPE_BODY_LIMITS: JSON.stringify(bodyLimitRules()),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? "65536",
  };
}
