import "server-only";
import { notFound } from "@/lib/errors";

export interface JobContext {
  params: Promise<{ id: string }>;
}

/** The job id of a /api/v1/jobs/{id} path; anything but a positive integer names no job (404). */
export async function jobIdOf(context: JobContext): Promise<number> {
  const { id } = await context.params;
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw notFound(`there is no job ${id}`);
  return Number(id);
}
