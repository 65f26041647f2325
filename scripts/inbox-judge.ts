import os from "node:os";
import pg from "pg";
import { connectDatabase } from "@/db/client";
import { inboxChannel, judgeInbox } from "@/db/queries/faults";

/** The judge looks at the inbox this often when no NOTIFY woke it (another instance judging, or a lost LISTEN). */
const pollMs = 1_000;
/**
 * With the inbox empty the judge waits for a stored batch's NOTIFY; this poll only covers a LISTEN connection lost
 * meanwhile (it is made again within 5 s). Each poll is a lock, a read and an unlock on PostgreSQL, work the pages'
 * requests share the cores with for nothing while no batch waits.
 */
const idlePollMs = 5_000;
/**
 * The share of the time the judge may judge (`RANKSCOPE_INBOX_JUDGE_SHARE`, 0.5 by default): after a group that took
 * t ms it rests t × (1 − share) / share, holding the lock. A judgement keeps about a core busy between this process
 * and PostgreSQL; unpaced, on the load bench's 2 cores it took them from the viewers (every viewer call p95 over 80 s).
 * When the judge falls behind, the inbox's depth bound (RANKSCOPE_INBOX_MAX_EVENTS) paces the feeders to it.
 */
export function judgeShare(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.RANKSCOPE_INBOX_JUDGE_SHARE);
  return env.RANKSCOPE_INBOX_JUDGE_SHARE && Number.isFinite(n) && n > 0 && n <= 1 ? n : 0.5;
}

/** After a failed judgement, the wait before the next (doubling up to a minute while it keeps failing). */
const failureDelayMs = (failures: number) => Math.min(60_000, 1_000 * 2 ** Math.min(failures - 1, 6));

/**
 * The fault-event inbox judge inside the server's supervisor (scripts/serve.ts), as retention is: every instance runs
 * one, woken by the NOTIFY each stored batch sends (or a poll each second), and the advisory lock in judgeInbox lets
 * one judge at a time across instances (db/queries/faults/inbox.ts). A process of its own, beside Next.js: the
 * judgement's CPU is never on the event loop that answers the viewers. A group that fails is tried again batch by
 * batch, so one batch the judgement cannot take holds up only itself (its age shows in GET /api/v1/fault-events/inbox).
 */
export function scheduleInboxJudge(databaseUrl: string, log: (line: string) => void): { stop(): Promise<void> } {
  // One session for the lock, one for the judgement's transaction, one for its reads outside it.
  const handle = connectDatabase(databaseUrl, { max: 3, applicationName: "rankscope inbox judge" });
  // The supervisor (this process: the judge, retention) below Next.js's priority, so the pages' event loop comes
  // first for the CPU (Next.js was started before, at the priority the supervisor had).
  try {
    os.setPriority(Math.min(19, os.getPriority() + 10));
  } catch {
    // not allowed here: the judge runs at the same priority
  }
  const share = judgeShare();
  const abort = new AbortController();
  /** Ends the current rest: `stop()` always, a NOTIFY when the rest `wakes`. */
  let resting: { wakes: boolean; done: () => void } | null = null;
  let woken = false;
  const poke = () => {
    woken = true;
    if (resting?.wakes) resting.done();
  };
  /** Waits `ms`, or less when `wakes` and a NOTIFY comes (or came since the last judgement began). */
  const rest = (ms: number, wakes = true) =>
    new Promise<void>((resolve) => {
      if ((wakes && woken) || abort.signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        resting = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      resting = { wakes, done };
    });
  const paced = (_: unknown, ms: number) => rest((ms * (1 - share)) / share, false);

  let listener: pg.Client | null = null;
  const listen = async () => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: "rankscope inbox judge" });
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
      if (listener === client) listener = null;
      // The poll covers the gap; LISTEN again a little later.
      if (!abort.signal.aborted) setTimeout(() => void listen(), 5_000).unref();
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", poke);
    try {
      await client.connect();
      await client.query(`listen ${inboxChannel}`);
      listener = client;
    } catch {
      lost();
    }
  };

  const loop = async () => {
    let failures = 0;
    while (!abort.signal.aborted) {
      woken = false;
      let judged: { batches: number; events: number } | null = null;
      try {
        judged = await judgeInbox(handle, { signal: abort.signal, onGroup: paced, ...(failures ? { maxGroupEvents: 1 } : {}) });
        failures = 0;
      } catch (error) {
        failures++;
        if (!abort.signal.aborted) log(`fault inbox: judgement failed (again in ${failureDelayMs(failures) / 1000} s): ${error instanceof Error ? error.message : String(error)}`);
        await rest(failureDelayMs(failures), false);
        continue;
      }
      // Another instance judges (null): look again after the poll, whatever NOTIFYs come meanwhile (they are for
      // that judge); the inbox emptied here: wait for the next batch.
      if (judged === null) await rest(pollMs, false);
      else if (judged.batches === 0) await rest(idlePollMs);
    }
  };

  void listen();
  const running = loop();
  return {
    async stop() {
      abort.abort();
      resting?.done();
      if (listener) listener.removeAllListeners("end");
      await running;
      if (listener) await listener.end().catch(() => {});
      await handle.pool.end();
    },
  };
}
