/**
 * `npx tsx scripts/simulate-faults.ts [--url http://localhost:3000] [--token <API token>] [--cluster atlas-a3-demo]
 *  [--end 2026-11-23T08:00:00Z] [--dry-run]`: replays a realistic day of faults (lib/faults/simulate.ts) against
 * POST /api/v1/fault-events in batches of 1,000. The token needs the editor role (RANKSCOPE_TOKEN works too).
 * Re-running with the same --end changes nothing (the events have stable ids). --dry-run prints the events.
 */
import { parseArgs } from "node:util";
import { simulateDay } from "@/lib/faults/simulate";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: process.env.RANKSCOPE_URL ?? "http://localhost:3000" },
      token: { type: "string", default: process.env.RANKSCOPE_TOKEN },
      cluster: { type: "string", default: "atlas-a3-demo" },
      end: { type: "string" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const end = values.end ? Date.parse(values.end) : Date.now();
  if (!Number.isFinite(end)) {
    console.error(`--end ${values.end} is not a time (use ISO 8601, e.g. 2026-11-23T08:00:00Z)`);
    return 2;
  }
  const events = simulateDay({ cluster: values.cluster, end });
  if (values["dry-run"]) {
    console.log(JSON.stringify(events, null, 2));
    return 0;
  }
  if (!values.token) {
    console.error("an API token with the editor role is needed: --token <token> or RANKSCOPE_TOKEN (Admin › Tokens)");
    return 2;
  }
  const totals = { created: 0, closed: 0, unchanged: 0, invalid: 0 };
  for (let i = 0; i < events.length; i += 1000) {
    const batch = events.slice(i, i + 1000);
    const response = await fetch(new URL("/api/v1/fault-events?atomic=item", values.url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${values.token}` },
      body: JSON.stringify(batch),
    });
    const body = (await response.json()) as { counts?: typeof totals; items?: { index: number; status: string; error?: { message: string } }[]; error?: { message: string } };
    if (!response.ok || !body.counts) {
      console.error(`batch ${i / 1000 + 1}: HTTP ${response.status}: ${body.error?.message ?? JSON.stringify(body)}`);
      return 1;
    }
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += body.counts[key];
    for (const item of body.items ?? []) if (item.status === "invalid") console.error(`event ${i + item.index}: ${item.error?.message}`);
  }
  console.log(`simulated day ${new Date(end - 86_400_000).toISOString()} → ${new Date(end).toISOString()} on ${values.cluster}: ${events.length} events; created ${totals.created}, closed ${totals.closed}, unchanged ${totals.unchanged}, invalid ${totals.invalid}`);
  return totals.invalid ? 1 : 0;
}

process.exitCode = await main();
