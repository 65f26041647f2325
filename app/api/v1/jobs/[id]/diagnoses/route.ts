import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listDiagnoses, storeDiagnosis } from "@/db/queries/job-diagnoses";
import { loadJobRankTable } from "@/db/queries/job-ranks";
import { jobExists } from "@/db/queries/jobs";
import { diagnosisBodyLimit } from "@/db/schema/job/constants";
import { DomainError, notFound } from "@/lib/errors";
import { LogDiagnoser } from "@/lib/hccl-diagnose";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { bodyChunks } from "@/server/http/body";
import type { SkippedInput } from "@/server/hccl-logs/sources";
import { counted, feedDiagnosisUpload } from "@/server/jobs/diagnosis-upload";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/** The job's diagnoses, newest first, each with its report. */
export const GET = unproxiedRoute<JobContext>("read", async ({ context }) => {
  const id = await jobIdOf(context);
  if (!(await jobExists(appDatabase().db, id))) throw notFound(`there is no job ${id}`);
  return NextResponse.json({ items: await listDiagnoses(appDatabase().db, id) });
});

/**
 * Diagnoses logs of the job: a multipart form of files (plogs, `.tar.gz`/`.tgz`/`.tar`/`.gz`) and pasted text fields,
 * or a raw body (text, or an archive named by `?name=`), read in stream into the diagnoser with the job's rank
 * table, at most diagnosisBodyLimit (512 MiB, bodyChunks; proxy.ts leaves this route out, so the body is never buffered).
 * Stores the report as a diagnosis of the job (201) and its suspects as hccl-error fault events. Post again with
 * more logs to diagnose again.
 */
export const POST = unproxiedRoute<JobContext>("write", async ({ request, context, actor }) => {
  const id = await jobIdOf(context);
  // A declared length over the limit is refused here, before the job is looked up.
  const body = bodyChunks(request, diagnosisBodyLimit);
  // The rank table is all the diagnoser needs of the job (getJob would read every rank: 100,000 of them at scale).
  const rankTable = await loadJobRankTable(appDatabase().db, id);
  if (rankTable === undefined) throw notFound(`there is no job ${id}`);
  if (!request.body) throw new DomainError("bad_request", "send the logs: files as multipart/form-data, or text", { code: "no_logs" });
  const diagnoser = new LogDiagnoser(rankTable ? { rankTable } : {});
  const counter = { bytes: 0 };
  const name = new URL(request.url).searchParams.get("name")?.slice(0, 500) || "pasted.log";
  const skipped: SkippedInput[] = [];
  const parts = await feedDiagnosisUpload(diagnoser, counted(body, counter), request.headers.get("content-type"), name, skipped);
  if (parts === 0 || counter.bytes === 0) throw new DomainError("bad_request", "the request carried no logs", { code: "no_logs" });
  const report = diagnoser.finish();
  const diagnosis = await storeDiagnosis(appDatabase(), id, report, { files: report.stats.files, bytes: counter.bytes }, actor);
  return NextResponse.json(diagnosis, { status: 201 });
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
