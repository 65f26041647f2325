import "server-only";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { DatabaseHandle } from "@/db/client";
import { lagHintMs, isReplicaPool } from "@/db/read-database";
import { acceptsGzip, decodedTypeHeader } from "@/lib/gzip-answer";
import { SharedAnswers, type Computed } from "@/lib/shared-answers";
import { carriesOwnWrite, readFor, readHeaders } from "@/server/http/read-routing";
import { listeningToFaults, subscribeFaults } from "./notifications";
import { refreshRollupsSoon } from "./rollup-refresher";

/*
 * The fault reads a hundred viewers ask at once (the topology's health, the timeline and statistics of the last day:
 * issue 20, item 7), computed once per instance per change of the cluster's faults instead of once per caller.
 *
 * The revision of a cluster's faults counts the NOTIFYs this instance heard for it (every ingestion, from any
 * instance, sends one at commit: server/faults/notifications.ts); a LISTEN connection lost and back again makes every
 * revision new (notices were missed), and while it is not in place nothing is reused, only shared by callers asking
 * at the same time. An answer is reused while its cluster's revision holds, for at most `maxAgeMs` (what changes with
 * time alone: open faults judged again as their timeouts pass, open time counted until now), or `lagHintMs` when a
 * replica answered (it may not have replayed the last notice's write yet: the same second a replica is trusted for
 * without a "data as of" hint, db/read-database.ts). A caller carrying its own write's position (the
 * `rankscope-written` cookie) is never served a shared answer: it must see its write. Who may read is checked before
 * (route()): only the data is shared. Each notice also asks for the cluster's stale rollups to be rebuilt, off the
 * readers' path (rollup-refresher.ts).
 */

/** How long an answer is reused while nothing was ingested into its cluster. */
const maxAgeMs = 5_000;

interface Revisions {
  byCluster: Map<string, number>;
  /** Bumped when notices may have been missed, or this instance wrote: every revision is new. */
  epoch: number;
  subscribed: Promise<unknown> | null;
}

const globalForCache = globalThis as typeof globalThis & { rankscopeFaultRevisions?: Revisions; rankscopeFaultAnswers?: SharedAnswers<unknown> };

function revisions(): Revisions {
  const r = (globalForCache.rankscopeFaultRevisions ??= { byCluster: new Map(), epoch: 0, subscribed: null });
  r.subscribed ??= subscribeFaults(
    (notice) => {
      for (const name of [notice.slug, String(notice.clusterId)]) r.byCluster.set(name, (r.byCluster.get(name) ?? 0) + 1);
      refreshRollupsSoon(notice.clusterId);
    },
    () => r.epoch++,
  ).catch(() => (r.subscribed = null));
  return r;
}

/** The current revision of a cluster's faults (slug or id, as the caller named it), or undefined when unknown. */
export function faultRevision(cluster: string): string | undefined {
  const r = revisions();
  if (!listeningToFaults()) return undefined;
  return `${r.epoch}.${r.byCluster.get(cluster) ?? 0}`;
}

let unknownRevisions = 0;
/** The revision as a computation starts; never one seen before when it is not known (nothing is reused then). */
const revisionNow = (cluster: string) => faultRevision(cluster) ?? `unknown.${++unknownRevisions}`;

/** This instance wrote fault data: its own next reads must not get an answer from before (the NOTIFY comes later). */
export function faultDataWritten(): void {
  revisions().epoch++;
}

function answers<T>(): SharedAnswers<T> {
  return (globalForCache.rankscopeFaultAnswers ??= new SharedAnswers<unknown>()) as SharedAnswers<T>;
}

/**
 * `compute` on `handle` (the database this request's read goes to), shared by callers asking for `key` of `cluster`
 * at the same revision. For values a route works on further (the open faults the topology and the health overlay share).
 */
export function sharedFaultValue<T>(request: Request, cluster: string, key: string, handle: DatabaseHandle, compute: () => Promise<T>): Promise<T> {
  const revision = faultRevision(cluster);
  if (revision === undefined || carriesOwnWrite(request)) return compute();
  const source = isReplicaPool(handle.pool) ? "replica" : "primary";
  // The cluster is in the key: two clusters at the same revision (none ingested since the start) are not one answer.
  return answers<T>().get(`${source} ${cluster} ${key}`, () => revisionNow(cluster), async () => ({ value: await compute(), size: 0, maxAgeMs: source === "replica" ? lagHintMs : maxAgeMs }));
}

interface JsonAnswer {
  /** The JSON, serialised once for everyone. */
  body: Buffer;
  headers: Record<string, string>;
  /**
   * The JSON gzipped, made when a caller first asks for it (`Accept: application/gzip`: the console does) and kept
   * with the answer, so it is compressed once per answer, not per response, and goes when the answer goes (not counted
   * in its size: a tenth of the JSON's, 990 KiB of a day's 9.6 MB timeline).
   */
  gzip?: Promise<Buffer>;
}

const gzipped = promisify(gzip);

/**
 * A heavy fault read answered as JSON (`jsonRead`), shared by callers asking the same `key` of `cluster` at the same
 * revision. The answer is serialised once; to a caller that asks for a gzip file (lib/gzip-answer.ts) it is sent as
 * one, compressed once (off the event loop, on libuv's threads), while Next.js compresses the plain JSON again for
 * each response: a day's timeline is 9.8 MB of JSON, 70–95 ms of CPU to gzip.
 */
export async function sharedFaultJson(request: Request, cluster: string, key: string, work: (handle: DatabaseHandle) => Promise<unknown>): Promise<Response> {
  const revision = faultRevision(cluster);
  const compute = async (): Promise<Computed<JsonAnswer>> => {
    const { value, read } = await readFor(request, work);
    const body = Buffer.from(JSON.stringify(value));
    return { value: { body, headers: readHeaders(read) }, size: body.length, maxAgeMs: read.source === "replica" ? lagHintMs : maxAgeMs };
  };
  const answer = revision === undefined || carriesOwnWrite(request) ? (await compute()).value : await answers<JsonAnswer>().get(key, () => revisionNow(cluster), compute);
  const headers = { ...answer.headers, vary: "Accept" };
  if (acceptsGzip(request.headers.get("accept"))) {
    const bytes = await (answer.gzip ??= gzipped(answer.body));
    return new Response(new Uint8Array(bytes), { status: 200, headers: { ...headers, "content-type": "application/gzip", [decodedTypeHeader]: "application/json" } });
  }
  return new Response(new Uint8Array(answer.body), { status: 200, headers: { ...headers, "content-type": "application/json" } });
}

/** The key of a read: its name and its query, normalised (parameter order does not matter). */
export function readKey(name: string, request: Request): string {
  const params = [...new URL(request.url).searchParams].sort(([a, av], [b, bv]) => a.localeCompare(b) || av.localeCompare(bv));
  return `${name}?${new URLSearchParams(params).toString()}`;
}
