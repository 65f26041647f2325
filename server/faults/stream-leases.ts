import "server-only";
import { randomUUID } from "node:crypto";
import { appDatabase } from "@/db/client";
import { dropStreamLease, renewStreamLeases, takeStreamLease } from "@/db/queries/event-stream-leases";

/**
 * The per-user cap on event streams across instances: each open stream holds a lease row in PostgreSQL
 * (event_stream_leases), which this process renews every `renewSeconds` while the stream is open and deletes when
 * it ends. A lease lives `ttlSeconds` past its last renewal, so the streams of an instance killed outright stop
 * counting against their users within 45 s; until then a user at the cap is refused with 429 and Retry-After.
 */
export const streamLeaseTiming = { ttlSeconds: 45, renewSeconds: 15 } as const;

interface Leases {
  /** This process's id in the lease rows. */
  instanceId: string;
  /** The leases of this process's open streams. */
  live: Set<string>;
  timer: NodeJS.Timeout | null;
}

const globalForLeases = globalThis as typeof globalThis & { rankscopeStreamLeases?: Leases };

function leases(): Leases {
  globalForLeases.rankscopeStreamLeases ??= { instanceId: randomUUID(), live: new Set(), timer: null };
  return globalForLeases.rankscopeStreamLeases;
}

/** Renews this process's leases (and clears its stale and everyone's expired rows); a failure waits for the next beat. */
export async function renewLeases(): Promise<void> {
  const l = leases();
  await renewStreamLeases(appDatabase().pool, l.instanceId, [...l.live], streamLeaseTiming.ttlSeconds);
}

function heartbeat(l: Leases): void {
  if (l.timer) return;
  l.timer = setInterval(() => {
    renewLeases().catch(() => {});
    if (l.live.size === 0 && l.timer) {
      clearInterval(l.timer);
      l.timer = null;
    }
  }, streamLeaseTiming.renewSeconds * 1000);
  l.timer.unref();
}

/**
 * Takes a lease for `owner` when it holds fewer than `limit` streams on all instances; resolves to the release (once
 * however often it is called), or to `{ held }`, the streams the owner holds, when it is at the cap.
 */
export async function leaseStream(owner: string, limit: number): Promise<{ release: () => void } | { held: number }> {
  const l = leases();
  const id = randomUUID();
  const { taken, held } = await takeStreamLease(appDatabase().pool, { id, owner, instanceId: l.instanceId, limit, ttlSeconds: streamLeaseTiming.ttlSeconds });
  if (!taken) return { held };
  l.live.add(id);
  heartbeat(l);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      l.live.delete(id);
      // A failed delete (PostgreSQL away) is retried by the heartbeat, which deletes this process's rows it does not hold.
      dropStreamLease(appDatabase().pool, id).catch(() => {});
    },
  };
}
