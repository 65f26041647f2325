import { describe, expect, it } from "vitest";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { auth, linkDown, none, send, withFaultRoutes } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes();

describe("GET /api/v1/events (server-sent events)", () => {
  it("announces a new event of the cluster within 2 seconds, through LISTEN/NOTIFY", async () => {
    const { GET: events } = await import("./route");
    const abort = new AbortController();
    const response = await events(new Request(`${origin}/api/v1/events?cluster=atlas-a3-demo`, { headers: auth("viewer"), signal: abort.signal }), none);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toMatch(/retry: 3000/);
    const started = Date.now();
    await send([linkDown("sp1-node03", 11, 60_000, null)]);
    while (!text.includes("event: faults")) {
      const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event within 2 s")), 2000))]);
      text += decoder.decode(chunk.value);
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toMatch(/"slug":"atlas-a3-demo"/);
    abort.abort();
    await reader.cancel();
  });
});
