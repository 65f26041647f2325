import "server-only";
import pg from "pg";
import type { FaultNotice } from "@/db/queries/faults";
import { faultChannel } from "@/db/schema/fault-event/constants";

type Listener = (notice: FaultNotice) => void;

interface Hub {
  listeners: Set<Listener>;
  client: pg.Client | null;
  connecting: Promise<void> | null;
}

const globalForHub = globalThis as typeof globalThis & { rankscopeFaultHub?: Hub };

function hub(): Hub {
  globalForHub.rankscopeFaultHub ??= { listeners: new Set(), client: null, connecting: null };
  return globalForHub.rankscopeFaultHub;
}

/**
 * One LISTEN connection per server process, shared by every open event stream: PostgreSQL NOTIFY (sent by the
 * ingestion transaction when it commits) fans out to the subscribers. A lost connection is re-opened after 2 s;
 * with no subscribers left the connection is closed.
 */
async function connect(h: Hub): Promise<void> {
  if (h.client || h.connecting) return h.connecting ?? undefined;
  const url = process.env.DATABASE_URL;
  if (!url) return;
  h.connecting = (async () => {
    const client = new pg.Client({ connectionString: url });
    const retry = () => {
      if (h.client === client) h.client = null;
      client.removeAllListeners();
      client.end().catch(() => {});
      if (h.listeners.size) setTimeout(() => void connect(h), 2000);
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
      h.client = client;
    } catch {
      retry();
    }
  })().finally(() => {
    h.connecting = null;
  });
  return h.connecting;
}

export async function subscribeFaults(listener: Listener): Promise<() => void> {
  const h = hub();
  h.listeners.add(listener);
  await connect(h);
  return () => {
    h.listeners.delete(listener);
    if (h.listeners.size === 0 && h.client) {
      const client = h.client;
      h.client = null;
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
    }
  };
}
