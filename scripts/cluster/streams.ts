/** The per-user cap on live event streams, checked across the two instances of `npm run test:cluster`. */
import { check, type Instance } from "./instances";

/** RANKSCOPE_SSE_MAX_STREAMS_PER_USER on both instances. */
export const streamsPerUser = 3;

/**
 * A user's streams count on both instances together (leases in PostgreSQL, server/faults/stream-leases.ts): two on
 * A and one on B fill the cap, a fourth on either is refused with 429 and Retry-After, and once one on B ends a new
 * one on A is let in.
 */
export async function streamCapAcross(a: Instance, b: Instance, cookie: string): Promise<void> {
  const aborts: AbortController[] = [];
  const open = (instance: Instance) => {
    const abort = new AbortController();
    aborts.push(abort);
    return fetch(`${instance.base}/api/v1/events?cluster=atlas-a3-demo`, { headers: { cookie }, signal: abort.signal });
  };
  try {
    const held = [await open(a), await open(a), await open(b)];
    check(held.every((r) => r.status === 200), `${streamsPerUser} streams of one user held, 2 on A and 1 on B: ${held.map((r) => r.status).join(" ")}`);
    for (const instance of [a, b]) {
      const refused = await open(instance);
      const body = (await refused.json()) as { error?: { code?: string; details?: { open?: number } } };
      check(
        refused.status === 429 && refused.headers.get("retry-after") === "30" && body.error?.code === "too_many_streams" && body.error.details?.open === streamsPerUser,
        `a ${streamsPerUser + 1}th stream on ${instance.name} is refused: ${refused.status} ${body.error?.code ?? ""}, Retry-After ${refused.headers.get("retry-after") ?? "none"}, open ${body.error?.details?.open ?? "?"}`,
      );
    }
    aborts[2]!.abort(); // B's stream ends: its lease is deleted
    let status = 0;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const again = await open(a);
      status = again.status;
      if (status === 200) break;
      await again.body?.cancel();
    }
    check(status === 200, `once B's stream ends, a new one on A is let in (${status})`);
  } finally {
    for (const abort of aborts) abort.abort();
  }
}
