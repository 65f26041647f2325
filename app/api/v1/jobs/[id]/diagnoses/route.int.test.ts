/**
 * A failed job's logs diagnosed (multipart .tar.gz, plain text, streamed uploads) through the route handlers against
 * PostgreSQL, stored with its suspects as fault events, and the fault timeline's Job column and job filter.
 */
import { gzipSync } from "node:zlib";
import { like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { ingestFaultEvents } from "@/db/queries/faults";
import { auditLog } from "@/db/schema";
import { diagnosisBodyLimit } from "@/db/schema/job/constants";
import type { JobSummary as JobDetail } from "@/db/schema/job/ranks";
import type { JobDiagnosis } from "@/db/schema/job/validation";
import type { TimelineResult } from "@/lib/faults/api-types";
import { demoFailedJob } from "@/lib/jobs/demo-job";
import { bodyLimitHeader } from "@/server/http/body-limits";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { a2, auth, idOf, none, withJobsCluster, type Handler } from "@/test/jobs";

withAppDatabase();
withJobsCluster();

const routes = {} as Record<"list" | "create" | "get" | "diagnose" | "diagnoses" | "faults", Handler<{ id: string }>>;

beforeAll(async () => {
  ({ GET: routes.list, POST: routes.create } = (await import("../../route")) as unknown as { GET: Handler<{ id: string }>; POST: Handler<{ id: string }> });
  ({ GET: routes.get } = (await import("../route")) as unknown as { GET: Handler<{ id: string }> });
  ({ POST: routes.diagnose, GET: routes.diagnoses } = (await import("./route")) as unknown as { POST: Handler<{ id: string }>; GET: Handler<{ id: string }> });
  ({ GET: routes.faults } = (await import("../../../fault-events/route")) as unknown as { GET: Handler<{ id: string }> });
});

/** A ustar archive, gzipped, as `tar czf` writes it. */
function tarGz(files: { path: string; text: string }[]): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const file of files) {
    const data = encoder.encode(file.text);
    const header = new Uint8Array(512);
    header.set(encoder.encode(file.path.slice(0, 100)), 0);
    header.set(encoder.encode(data.length.toString(8).padStart(11, "0")), 124);
    header[156] = 48;
    header.set(encoder.encode("ustar\u000000"), 257);
    // The checksum: the header's bytes summed with the checksum field as spaces.
    header.fill(32, 148, 156);
    header.set(encoder.encode(`${header.reduce((n, b) => n + b, 0).toString(8).padStart(6, "0")}\u0000 `), 148);
    chunks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  chunks.push(new Uint8Array(1024));
  return gzipSync(Buffer.concat(chunks));
}

describe("diagnosing a failed job", () => {
  it("reads a .tar.gz of its logs, stores the diagnosis, and records the culprit as an hccl-error event the job's timeline shows", async () => {
    const logs = demoFailedJob(a2, { phase: "load", servers: 2, culpritRank: 11 });
    const began = Date.now() - 3_600_000;
    const ended = Date.now() - 600_000;
    const created = await routes.create(
      jsonRequest("/api/v1/jobs", "POST", { cluster: "atlas-a2-demo", name: "gpt-load-failure", state: "failed", startedAt: began, endedAt: ended, rankTable: logs.rankTable }, auth()),
      none,
    );
    const job = (await created.json()) as JobDetail;
    expect(job.placement).toMatchObject({ placed: 16, unmatched: 0 });

    const form = new FormData();
    form.append("files", new Blob([Buffer.from(tarGz([...logs.files()]))], { type: "application/gzip" }), "logs.tar.gz");
    form.append("text", "pasted: nothing relevant");
    const request = new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses`, { method: "POST", headers: auth(), body: form });
    const response = await routes.diagnose(request, idOf(job.id));
    expect(response.status, await response.clone().text()).toBe(201);
    const diagnosis = (await response.json()) as JobDiagnosis;
    expect(diagnosis.report.phase).toBe("load");
    expect(diagnosis.report.suspects[0]).toMatchObject({ rank: 11 });
    expect(diagnosis.files).toBeGreaterThan(2);
    expect(diagnosis.faultEventIds.length).toBeGreaterThan(0);

    // Re-running records a second diagnosis but no event twice.
    const rerun = (await (await routes.diagnose(new Request(request.url, { method: "POST", headers: auth(), body: form }), idOf(job.id))).json()) as JobDiagnosis;
    expect(rerun.faultEventIds).toEqual(diagnosis.faultEventIds);
    const listed = (await (await routes.diagnoses(jsonRequest(`/api/v1/jobs/${job.id}/diagnoses`, "GET", undefined, auth()), idOf(job.id))).json()) as { items: JobDiagnosis[] };
    expect(listed.items.map((d) => d.id)).toEqual([rerun.id, diagnosis.id]);
    const after = (await (await routes.get(jsonRequest(`/api/v1/jobs/${job.id}`, "GET", undefined, auth()), idOf(job.id))).json()) as JobDetail;
    expect(after.lastDiagnosis).toMatchObject({ id: rerun.id, phase: "load" });

    // A link-down on one of the job's dies while it ran, sent without a job: the timeline names the job and rank.
    await ingestFaultEvents(testDatabase(), [{ cluster: "atlas-a2-demo", kind: "roce-link-down", target: { server: "a2-node0", die: 2 }, beganAt: began + 60_000, endedAt: began + 120_000 }], {
      atomic: "all",
      actor: systemActor,
    });
    // And one on a die outside the job: not in the job's timeline.
    await ingestFaultEvents(testDatabase(), [{ cluster: "atlas-a2-demo", kind: "npu-chip-fault", target: { server: "a2-node3", die: 0 }, beganAt: began + 60_000 }], { atomic: "all", actor: systemActor });
    const query = `cluster=atlas-a2-demo&from=${began - 3_600_000}&to=${Date.now()}&job=${job.id}`;
    const timeline = (await (await routes.faults(jsonRequest(`/api/v1/fault-events?${query}`, "GET", undefined, auth()), none)).json()) as TimelineResult;
    const byKind = Object.fromEntries(timeline.events.map((e) => [e.kind, e]));
    expect(Object.keys(byKind).sort()).toEqual(["hccl-error", "roce-link-down"]);
    expect(byKind["hccl-error"]).toMatchObject({ serverId: "a2-node1", deviceId: 3, job: "gpt-load-failure", rank: 11, phase: "operator-loading" });
    expect(byKind["roce-link-down"]).toMatchObject({ job: "gpt-load-failure", rank: 2 });

    // A server the job runs on, a link with one end on its dies: in its timeline; the same off the job, or before it: not.
    const event = (target: Record<string, unknown>, kind: "node-fault" | "hccs-fault", at = began + 70_000) => ({ cluster: "atlas-a2-demo", kind, target, beganAt: at, endedAt: at + 10_000 });
    await ingestFaultEvents(
      testDatabase(),
      [
        event({ server: "a2-node1" }, "node-fault"),
        event({ server: "a2-node3", die: 1, peer: { server: "a2-node0", die: 6 } }, "hccs-fault"),
        event({ server: "a2-node2" }, "node-fault"),
        event({ server: "a2-node1" }, "node-fault", began - 70_000),
        event({ server: "a2-node3", die: 1, peer: { server: "a2-node2", die: 6 } }, "hccs-fault"),
      ],
      { atomic: "all", actor: systemActor },
    );
    const again = (await (await routes.faults(jsonRequest(`/api/v1/fault-events?${query}`, "GET", undefined, auth()), none)).json()) as TimelineResult;
    // Sorted by kind: the two began together, and the timeline breaks ties by the events' (random) ids.
    const notDies = again.events.filter((e) => e.targetKind !== "die").sort((x, y) => x.kind.localeCompare(y.kind));
    expect(notDies.map((e) => [e.kind, e.targetKind, e.serverId])).toEqual([
      ["hccs-fault", "link", "a2-node3"],
      ["node-fault", "server", "a2-node1"],
    ]);
    expect(again.events.find((e) => e.targetKind === "link")!.targetKey).toContain("a2-node0/6");

    const audit = await testDatabase().db.select().from(auditLog).where(like(auditLog.action, "job.diagnose"));
    expect(audit).toHaveLength(2);
  });

  it("gives an error CQE's suspect the link-down history of both NICs while the job ran, from the fault events", async () => {
    const hour = 3_600_000;
    const began = Date.now() - 5 * hour;
    const ended = began + hour;
    const logs = demoFailedJob(a2, { phase: "load", servers: 2, culpritRank: 11 });
    const create = async (name: string) =>
      (await (await routes.create(jsonRequest("/api/v1/jobs", "POST", { cluster: "atlas-a2-demo", name, state: "failed", startedAt: began, endedAt: ended, rankTable: logs.rankTable }, auth()), none)).json()) as JobDetail;
    const job = await create("gpt-cqe");
    // Rank 3 (a2-node0, device 3) logged the error CQE against rank 13 (a2-node1, device 5), naming servers by host IP
    // as EI0013 does (vllm-ascend#7384).
    const [local, peer] = [job.ranks.items[3]!, job.ranks.items[13]!];
    const line = `[PID: 335] 2026-03-13-06:55:06.896.485 Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local information: server ${local.hostIp ?? a2.servers[0]!.hostIp}, device ID ${local.deviceId}, device IP ${local.deviceIp}. Peer information: server ${a2.servers[1]!.hostIp}, device ID ${peer.deviceId}, device IP ${peer.deviceIp}.\n`;
    const diagnose = async (id: number) => {
      const response = await routes.diagnose(new Request(`${origin}/api/v1/jobs/${id}/diagnoses`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body: line }), idOf(id));
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as JobDiagnosis).report;
    };

    // Before any fault event: neither NIC went down.
    const quiet = (await diagnose(job.id)).suspects.find((s) => s.nics)!;
    expect(quiet.linkHistory).toMatchObject({ events: [], unplaced: [] });
    expect(quiet.reason.en).toContain("record no link-down of either NIC");

    const events = [
      // The peer's NIC went down during the run: the evidence.
      { id: "cqe-peer-down", cluster: "atlas-a2-demo", kind: "roce-link-down", code: "81078603", target: { server: "a2-node1", die: 5 }, beganAt: began + 30 * 60_000, endedAt: began + 30 * 60_000 + 40_000 },
      // A link at the local die, lanes faulty, still open.
      { id: "cqe-local-link", cluster: "atlas-a2-demo", kind: "npu-network-fault", target: { server: "a2-node0", die: 3, peer: { server: "a2-node0", die: 4 } }, beganAt: began + 20 * 60_000 },
      // Not counted: the same NIC down a day before, a chip fault on it (not a network fault), another die's link-down.
      { id: "cqe-peer-old", cluster: "atlas-a2-demo", kind: "roce-link-down", target: { server: "a2-node1", die: 5 }, beganAt: began - 24 * hour, endedAt: began - 24 * hour + 60_000 },
      { id: "cqe-peer-chip", cluster: "atlas-a2-demo", kind: "npu-chip-fault", target: { server: "a2-node1", die: 5 }, beganAt: began + 10 * 60_000, endedAt: began + 11 * 60_000 },
      { id: "cqe-other-die", cluster: "atlas-a2-demo", kind: "roce-link-down", target: { server: "a2-node1", die: 6 }, beganAt: began + 30 * 60_000, endedAt: began + 31 * 60_000 },
    ];
    await ingestFaultEvents(testDatabase(), events, { atomic: "all", actor: systemActor });
    const report = await diagnose(job.id);
    const suspect = report.suspects[0]!;
    expect(suspect).toMatchObject({ kind: "link", rank: 3, peer: { rank: 13 }, confidence: 0.95 });
    expect(suspect.linkHistory!.events.map((e) => [e.id, e.nic, e.die, e.target, e.kind])).toEqual([
      ["api:cqe-local-link", local.deviceIp, "a2-node0/3", "link", "npu-network-fault"],
      ["api:cqe-peer-down", peer.deviceIp, "a2-node1/5", "die", "roce-link-down"],
    ]);
    expect(Date.parse(suspect.linkHistory!.from)).toBe(began - hour);
    expect(Date.parse(suspect.linkHistory!.to)).toBe(ended + 10 * 60_000);
    expect(suspect.reason.en).toContain(`NIC ${peer.deviceIp} (a2-node1/5): roce-link-down ×1`);
    expect(suspect.reason.en).toContain("for 40 s");
    expect(suspect.reason.zh).toContain(`网卡 ${peer.deviceIp}（a2-node1/5）：roce-link-down ×1`);
    expect(report.summary.en).toContain("the link between them is the likely cause");
    // A link that kept flapping for days after the job: its 600 later events neither hide nor join the job's window.
    const later = Array.from({ length: 600 }, (_, i) => ({ id: `cqe-later-${i}`, cluster: "atlas-a2-demo", kind: "roce-link-down", target: { server: "a2-node1", die: 5 }, beganAt: ended + 2 * hour + i * 60_000, endedAt: ended + 2 * hour + i * 60_000 + 1000 }));
    await ingestFaultEvents(testDatabase(), later, { atomic: "all", actor: systemActor });
    expect((await diagnose(job.id)).suspects[0]!.linkHistory!.events.map((e) => e.id)).toEqual(["api:cqe-local-link", "api:cqe-peer-down"]);
    // Stored as it was answered, so the job page shows it.
    const listed = (await (await routes.diagnoses(jsonRequest(`/api/v1/jobs/${job.id}/diagnoses`, "GET", undefined, auth()), idOf(job.id))).json()) as { items: JobDiagnosis[] };
    expect(listed.items.map((d) => d.report.suspects[0]!.linkHistory!.events.length)).toEqual([2, 2, 0]);
  });

  it("streams an upload larger than the proxy's 32 MiB, answers with the proxy's headers, and refuses one past its own limit in the error shape", async () => {
    const job = await routes.create(jsonRequest("/api/v1/jobs", "POST", { cluster: "atlas-a2-demo", name: "big-upload", state: "failed" }, auth()), none).then(async (r) => (await r.json()) as JobDetail);
    // 48 MiB of INFO chatter sent in 1 MiB chunks without a length (chunked), the failure at its end.
    const chatter = new TextEncoder().encode("[INFO] HCCL(77,python):2025-07-23-03:47:57.070.463 [op_base.cc:1] [77][Op] entry AllReduce count[4096]\n".repeat(10_000));
    const failure = new TextEncoder().encode("[ERROR] HCCL(77,python):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [77][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail.\n");
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 48 * 1024 * 1024) {
          controller.enqueue(failure);
          controller.close();
          return;
        }
        controller.enqueue(chatter);
        sent += chatter.length;
      },
    });
    const response = await routes.diagnose(new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses?name=worker-0.log`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body, duplex: "half" } as RequestInit), idOf(job.id));
    expect(response.status, await response.clone().text()).toBe(201);
    const diagnosis = (await response.json()) as JobDiagnosis;
    expect(diagnosis.bytes).toBeGreaterThan(48 * 1024 * 1024);
    expect(diagnosis.report).toMatchObject({ phase: "port_in_use", suspects: [{ port: 16666 }] });
    // What proxy.ts would have put on the answer: this route does not pass it (proxy.ts config.matcher).
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");

    const declared = await routes.diagnose(
      new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses`, { method: "POST", headers: { ...auth(), "content-type": "text/plain", "content-length": String(diagnosisBodyLimit + 1) }, body: "x" }),
      idOf(job.id),
    );
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: "payload_too_large", details: { limit: diagnosisBodyLimit } } });
    expect(declared.headers.get("x-frame-options")).toBe("DENY");
    // A multipart form streamed past the limit (here the preload's stamp) is a 413 too, not an unreadable upload.
    const streamed = await routes.diagnose(
      new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses`, {
        method: "POST",
        headers: { ...auth(), "content-type": "multipart/form-data; boundary=b", [bodyLimitHeader]: "4096" },
        body: `--b\r\nContent-Disposition: form-data; name="worker-0"; filename="worker-0.log"\r\n\r\n${"x".repeat(8192)}\r\n--b--\r\n`,
      }),
      idOf(job.id),
    );
    expect(streamed.status, await streamed.clone().text()).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: "payload_too_large", details: { limit: 4096 } } });
    // The guard is the same as through the proxy: no credentials, 401; a cross-site cookie call, refused.
    const anonymous = await routes.diagnose(new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), idOf(job.id));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("answers 400 for an empty upload, and 404 for an unknown job's upload and list", async () => {
    const job = ((await (await routes.list(jsonRequest("/api/v1/jobs", "GET", undefined, auth()), none)).json()) as { items: JobDetail[] }).items[0]!;
    const empty = await routes.diagnose(new Request(`${origin}/api/v1/jobs/${job.id}/diagnoses`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body: "" }), idOf(job.id));
    expect(empty.status).toBe(400);
    const unknown = await routes.diagnose(new Request(`${origin}/api/v1/jobs/999999/diagnoses`, { method: "POST", headers: { ...auth(), "content-type": "text/plain" }, body: "x" }), idOf(999_999));
    expect(unknown.status).toBe(404);
    expect((await routes.diagnoses(jsonRequest("/api/v1/jobs/999999/diagnoses", "GET", undefined, auth()), idOf(999_999))).status).toBe(404);
    expect((await routes.diagnoses(jsonRequest(`/api/v1/jobs/${job.id}/diagnoses`, "GET", undefined, auth()), idOf(job.id))).status).toBe(200);
  });
});
