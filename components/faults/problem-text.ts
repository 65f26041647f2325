"use client";

import { useTranslations } from "next-intl";
import { ApiRequestError } from "@/components/primitives/fetch-json";
import { isFaultReason, type FaultParams } from "@/lib/faults/errors";

/** A problem as the fault API or a parser states it: English `message`, and `reason` + `params` when it has them. */
export interface StatedProblem {
  message: string;
  reason?: unknown;
  params?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The reason and params an API error carries in `details` (the device-info endpoint's refusals), with its message. */
export function problemOfError(error: Error): StatedProblem {
  if (error instanceof ApiRequestError && isRecord(error.details)) return { message: error.message, reason: error.details.reason, params: error.details.params };
  return { message: error.message };
}

/**
 * Renders problems in the reader's language: `faults.errors.<reason>` of messages/*.json with the params
 * (lib/faults/errors.ts has the vocabulary); a problem without a known reason shows the server's English message.
 */
export function useProblemText(): (problem: StatedProblem) => string {
  const t = useTranslations("faults.errors");
  return (problem) => (isFaultReason(problem.reason) ? t(problem.reason, isRecord(problem.params) ? (problem.params as FaultParams) : {}) : problem.message);
}
