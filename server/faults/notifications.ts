import "server-only";
import pg from "pg";
import type { FaultNotice } from "@/db/queries/faults";
import { faultChannel } from "@/db/schema/fault-event/constants";

type Listener = (notice: FaultNotice) => void;
/** Told when LISTEN is back after a lost connection: notices sent in between were missed. */
type ResyncListener = () => void;

interface Hub {
  listeners: Set<Listener>;
  resyncListeners: Set<ResyncListener>;
  client: pg.Client | null;
  connecting: Promise<void> | null;
  /** Consecutive failed connections, for the back-off; 0 once LISTEN is in place. */
  failures: number;
  /** True from a lost (or failed) connection until LISTEN is in place again. */
  lost: boolean;
  /**
   * A snapshot (pg_current_snapshot() as text) taken on the connection once LISTEN was in place: every change
   * committed since is notified here, and it sees every one committed before (which was never heard).
   */
  since: string | null;
}

const globalForHub = globalThis as typeof globalThis & { rankscopeFaultHub?: Hub };

function hub(): Hub {
  globalForHub.rankscopeFaultHub ??= { listeners: new Set(), resyncListeners: new Set(), client: null, connecting: null, failures: 0, lost: false, since: null };
  return globalForHub.rankscopeFaultHub;
}

/** Names the LISTEN connection in pg_stat_activity (its last statement is not the LISTEN: the snapshot after it). */
export const listenApplicationName = "rankscope-listen";

/** The wait before the next LISTEN connection attempt after `failures` failed ones in a row. */
export function reconnectDelayMs(failures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1));
}

/**
 * One LISTEN connection per server process, shared by every open event stream: PostgreSQL NOTIFY (sent by the
 * ingestion transaction when it commits) fans out to the subscribers. A lost connection (PostgreSQL restarting) is
 * re-opened with a back-off, 0.5 s doubling up to 30 s, as long as anyone listens; with no subscribers left the
 * connection is closed. Notices sent while it was away are lost (NOTIFY is not queued for a listener that is not
 * connected), so once it is back every subscriber's resync listener is called: the event streams tell the browsers
 * to fetch again.
 */
async function connect(h: Hub): Promise<void> {
  if (h.client || h.connecting) return h.connecting ?? undefined;
  const url = process.env.DATABASE_URL;
  if (!url) return;
  h.connecting = (async () => {
    const client = new pg.Client({ connectionString: url, application_name: listenApplicationName });
    let retried = false;
    const retry = () => {
      // "error" and "end" both arrive for one loss, and a failed connect may report both too: one retry each.
      if (retried) return;
      retried = true;
      if (h.client === client) h.client = null;
      client.removeAllListeners();
      client.end().catch(() => {});
      h.failures++;
      h.lost = true;
      if (h.listeners.size) setTimeout(() => void connect(h), reconnectDelayMs(h.failures)).unref();
    };
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (message) => {
      if (message.channel !== faultChannel || !message.payload) return;
      let notice: FaultNotice;
      try {
        notice = JSON.parse(message.payload) as FaultNotice;
      } catch {
        return;
      }
      for (const listener of h.listeners) listener(notice);
    });
    try {
      await client.connect();
      await client.query(`listen ${faultChannel}`);
      const { rows } = await client.query<{ since: string }>("select pg_current_snapshot()::text as since");
      h.since = rows[0]!.since;
      h.client = client;
      h.failures = 0;
      if (h.lost) {
        h.lost = false;
        for (const resync of h.resyncListeners) resync();
      }
    } catch {
      retry();
    }
  })().finally(() => {
    h.connecting = null;
  });
  return h.connecting;
}

/** Whether LISTEN is in place now: notices sent from here on reach the subscribers. */
export function listeningToFaults(): boolean {
  return hub().client !== null;
}

/**
 * While LISTEN is in place, a snapshot taken just after it was established (text): an answer must see what it sees
 * (server/faults/read-cache.ts), since what committed before was not heard.
 */
export function listeningSince(): string | undefined {
  const h = hub();
  return h.client !== null && h.since !== null ? h.since : undefined;
}

export async function subscribeFaults(listener: Listener, onResync?: ResyncListener): Promise<() => void> {
  const h = hub();
  h.listeners.add(listener);
  if (onResync) h.resyncListeners.add(onResync);
  await connect(h);
  return () => {
    h.listeners.delete(listener);
    if (onResync) h.resyncListeners.delete(onResync);
    if (h.listeners.size === 0 && h.client) {
      const client = h.client;
      h.client = null;
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
    }
  };
}
