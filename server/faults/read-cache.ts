import "server-only";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { answersDatabase, type DatabaseHandle } from "@/db/client";
import { currentSnapshot, obtainFaultAnswer, type StoredFaultAnswer } from "@/db/queries/faults";
import { lagHintMs, isReplicaPool } from "@/db/read-database";
import { acceptsGzip, decodedTypeHeader } from "@/lib/gzip-answer";
import { covers, HeardChanges, type Requirement } from "@/lib/heard-changes";
import { SharedAnswers, type Computed } from "@/lib/shared-answers";
import { parseSnapshot, parseXid, type XactSnapshot } from "@/lib/xact-snapshot";
import { carriesOwnWrite, readFor, readHeaders } from "@/server/http/read-routing";
import { listeningSince, listeningToFaults, subscribeFaults } from "./notifications";
import { refreshRollupsSoon } from "./rollup-refresher";

/*
 * The fault reads a hundred viewers ask at once (the topology's health, the timeline and statistics of the last day:
 * issue 20, item 7), computed once for every instance per change of the cluster's faults instead of once per caller.
 *
 * In this process: the revision of a cluster's faults counts the NOTIFYs this instance heard for it (every ingestion,
 * from any instance, sends one at commit: server/faults/notifications.ts); a LISTEN connection lost and back again
 * makes every revision new (notices were missed), and while it is not in place nothing is reused, only shared by
 * callers asking at the same time. An answer is reused while its cluster's revision holds, for at most `maxAgeMs`
 * (what changes with time alone: open faults judged again as their timeouts pass, open time counted until now).
 *
 * Across instances (`sharedFaultJson`): each NOTIFY carries its transaction's id, and each answer the snapshot it was
 * computed from; an answer is kept in PostgreSQL (db/queries/faults/shared-answers.ts), and another instance serves it
 * when it sees every change that instance had heard of when the computation was asked for, and the snapshots taken
 * when LISTEN was established and after this instance's own last write (lib/heard-changes.ts). One instance computes
 * a key at a time; the others wait for it (at most `lockWaitMs`) when the snapshot it reads from covers what they
 * heard, and take its answer; otherwise they compute in parallel, as each instance did alone.
 * An answer a replica computed that misses a change this instance heard of (the replica is behind) is served as it
 * was computed (with its "data as of"), never kept for another instance's callers past what it covers, and reused
 * here for at most `lagHintMs` as before.
 *
 * A caller carrying its own write's position (the `rankscope-written` cookie) is never served a shared answer: it must
 * see its write. Who may read is checked before (route()): only the data is shared. Each notice also asks for the
 * cluster's stale rollups to be rebuilt, off the readers' path (rollup-refresher.ts).
 */

/** How long an answer is reused while nothing was ingested into its cluster. */
const maxAgeMs = 5_000;
/** How long an instance waits for another one's computation of a key before it computes it too. */
const lockWaitMs = 10_000;

interface Revisions {
  byCluster: Map<string, number>;
  /** Bumped when notices may have been missed, or this instance wrote: every revision is new. */
  epoch: number;
  subscribed: Promise<unknown> | null;
  /** The transaction ids heard per cluster, and the barriers: what an answer from another instance must see. */
  heard: HeardChanges;
  /** The LISTEN connection's snapshot the `listen` barrier was set from. */
  since: string | null;
  /** The `written` barrier's query: none, one running, or one running and another to take after it. */
  barrier: "idle" | "taking" | "again";
}

const globalForCache = globalThis as typeof globalThis & { rankscopeFaultRevisions?: Revisions; rankscopeFaultAnswers?: SharedAnswers<unknown> };

function revisions(): Revisions {
  const r = (globalForCache.rankscopeFaultRevisions ??= { byCluster: new Map(), epoch: 0, subscribed: null, heard: new HeardChanges(), since: null, barrier: "idle" });
  r.subscribed ??= subscribeFaults(
    (notice) => {
      const names = [notice.slug, String(notice.clusterId)];
      for (const name of names) r.byCluster.set(name, (r.byCluster.get(name) ?? 0) + 1);
      const xid = parseXid(notice.xid);
      // A notice without its transaction's id (sent by hand): a snapshot taken now sees it.
      if (xid === undefined) takeBarrier(r);
      else r.heard.heard(names, xid);
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

/**
 * The `written` barrier: a snapshot of the primary taken after a change committed whose transaction id is not known
 * here. Until it is in place (and while it cannot be taken: tried again each second) no stored answer covers. One
 * query at a time: changes heard while one runs are covered by the next, taken when it ends.
 */
function takeBarrier(r: Revisions): void {
  r.heard.barrier("written", "pending");
  if (r.barrier !== "idle") {
    r.barrier = "again";
    return;
  }
  r.barrier = "taking";
  const done = (snapshot: XactSnapshot | undefined) => {
    const again = r.barrier === "again";
    r.barrier = "idle";
    if (again) takeBarrier(r);
    else if (snapshot) r.heard.barrier("written", snapshot);
    else setTimeout(() => r.barrier === "idle" && takeBarrier(r), 1_000).unref();
  };
  // From a timer too: a pool that cannot be had (closed, not configured) is a failed try, never an uncaught throw.
  Promise.resolve()
    .then(() => currentSnapshot(answersDatabase().pool))
    .then(done, () => done(undefined));
}

/** This instance wrote fault data: its own next reads must not get an answer from before (the NOTIFY comes later). */
export function faultDataWritten(): void {
  const r = revisions();
  r.epoch++;
  takeBarrier(r);
}

/** What an answer for `cluster` must see to be served here now; undefined while LISTEN is not in place. */
function requirementFor(cluster: string): Requirement | undefined {
  const since = listeningSince();
  if (since === undefined) return undefined;
  const r = revisions();
  if (r.since !== since) {
    r.since = since;
    r.heard.barrier("listen", parseSnapshot(since));
  }
  return r.heard.requirement(cluster);
}

function answers<T>(): SharedAnswers<T> {
  return (globalForCache.rankscopeFaultAnswers ??= new SharedAnswers<unknown>()) as SharedAnswers<T>;
}

/**
 * `compute` on `handle` (the database this request's read goes to), shared by callers asking for `key` of `cluster`
 * at the same revision, in this instance only. For values a route works on further (the open faults the topology view
 * draws).
 */
export function sharedFaultValue<T>(request: Request, cluster: string, key: string, handle: DatabaseHandle, compute: () => Promise<T>): Promise<T> {
  const revision = faultRevision(cluster);
  if (revision === undefined || carriesOwnWrite(request)) return compute();
  const source = isReplicaPool(handle.pool) ? "replica" : "primary";
  // The cluster is in the key: two clusters at the same revision (none ingested since the start) are not one answer.
  return answers<T>().get(`${source} ${cluster} ${key}`, () => revisionNow(cluster), async () => ({ value: await compute(), size: 0, maxAgeMs: source === "replica" ? lagHintMs : maxAgeMs }));
}

interface JsonAnswer {
  headers: Record<string, string>;
  /** The JSON, serialised once for everyone (or decoded once from the gzip of another instance's answer). */
  json?: Promise<Buffer>;
  /**
   * The JSON gzipped, made once per answer: stored for the other instances, and sent as is to a caller that asks for
   * it (`Accept: application/gzip`: the console does) instead of compressing the JSON for each response.
   */
  gzip?: Promise<Buffer>;
}

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/** The answer's JSON, and its gzip: each made (off the event loop, on libuv's threads) from the other once, when asked for. */
const jsonOf = (answer: JsonAnswer): Promise<Buffer> => (answer.json ??= answer.gzip!.then((bytes) => gunzipped(bytes)));
const gzipOf = (answer: JsonAnswer): Promise<Buffer> => (answer.gzip ??= answer.json!.then((bytes) => gzipped(bytes)));

/** Counts, for tests and benches: answers computed here for the table, and answers taken from it. */
export const sharedFaultCounts = { computed: 0, taken: 0 };

/**
 * Computes an answer on the database `readFor` chooses, with the snapshot taken there before its reads (and told to
 * `reading`, so other instances know whether to wait for it).
 */
async function computeAnswer(
  request: Request,
  work: (handle: DatabaseHandle) => Promise<unknown>,
  reading: (snapshot: XactSnapshot) => void,
): Promise<StoredFaultAnswer & { json: Buffer }> {
  let snapshot: XactSnapshot | undefined;
  const { value, read } = await readFor(request, async (handle) => {
    snapshot = await currentSnapshot(handle.pool);
    reading(snapshot);
    return work(handle);
  });
  const json = Buffer.from(JSON.stringify(value));
  return { snapshot: snapshot!, headers: readHeaders(read), jsonBytes: json.length, gzip: await gzipped(json), json };
}

/**
 * The answer of `key` shared with the other instances: the stored one if it covers `requirement` and is young enough,
 * else computed (once across instances) and stored. Kept here while it covers what was heard when asked, for what is
 * left of its age; one that does not (a replica behind) for at most `lagHintMs`.
 */
async function sharedAcross(request: Request, key: string, requirement: Requirement, work: (handle: DatabaseHandle) => Promise<unknown>): Promise<Computed<JsonAnswer>> {
  let json: Buffer | undefined;
  const { answer, computed, ageMs } = await obtainFaultAnswer(
    answersDatabase().pool,
    key,
    (snapshot, ageMs) => ageMs < maxAgeMs && covers(snapshot, requirement),
    async (reading) => {
      const done = await computeAnswer(request, work, reading);
      json = done.json;
      return done;
    },
    { waitMs: lockWaitMs },
  );
  sharedFaultCounts[computed ? "computed" : "taken"]++;
  const left = covers(answer.snapshot, requirement) ? maxAgeMs - ageMs : Math.min(lagHintMs, maxAgeMs - ageMs);
  const value: JsonAnswer = { headers: answer.headers, gzip: Promise.resolve(answer.gzip), ...(json ? { json: Promise.resolve(json) } : {}) };
  return { value, size: answer.jsonBytes + answer.gzip.length, maxAgeMs: left };
}

/**
 * A heavy fault read answered as JSON (`jsonRead`), shared by callers asking the same `key` of `cluster` at the same
 * revision, on this instance and the others. To a caller that asks for a gzip file (lib/gzip-answer.ts) it is sent as
 * one, compressed once, while Next.js compresses the plain JSON again for each response: a day's timeline is 9.8 MB of
 * JSON, 70–95 ms of CPU to gzip.
 */
export async function sharedFaultJson(request: Request, cluster: string, key: string, work: (handle: DatabaseHandle) => Promise<unknown>): Promise<Response> {
  const alone = async (): Promise<JsonAnswer> => {
    const { value, read } = await readFor(request, work);
    return { headers: readHeaders(read), json: Promise.resolve(Buffer.from(JSON.stringify(value))) };
  };
  const compute = async (): Promise<Computed<JsonAnswer>> => {
    const requirement = requirementFor(cluster);
    // LISTEN lost since the caller asked: computed for the callers waiting, kept for nobody.
    if (!requirement) return { value: await alone(), size: 0, maxAgeMs: 0 };
    return sharedAcross(request, key, requirement, work);
  };
  const answer = faultRevision(cluster) === undefined || carriesOwnWrite(request) ? await alone() : await answers<JsonAnswer>().get(key, () => revisionNow(cluster), compute);
  const headers = { ...answer.headers, vary: "Accept" };
  if (acceptsGzip(request.headers.get("accept"))) {
    const bytes = await gzipOf(answer);
    return new Response(new Uint8Array(bytes), { status: 200, headers: { ...headers, "content-type": "application/gzip", [decodedTypeHeader]: "application/json" } });
  }
  return new Response(new Uint8Array(await jsonOf(answer)), { status: 200, headers: { ...headers, "content-type": "application/json" } });
}

/** The key of a read: its name and its query, normalised (parameter order does not matter). */
export function readKey(name: string, request: Request): string {
  const params = [...new URL(request.url).searchParams].sort(([a, av], [b, bv]) => a.localeCompare(b) || av.localeCompare(bv));
  return `${name}?${new URLSearchParams(params).toString()}`;
}
