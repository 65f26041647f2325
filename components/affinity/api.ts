import { z } from "zod";
import { fetchJson } from "@/components/primitives/fetch-json";
import type { AffinityCheck } from "@/lib/affinity/check";
import type { LayoutReading } from "@/lib/affinity/layout";
import type { AffinityPlan } from "@/lib/affinity/plan";

// Loose objects: the parts checked here are required, the rest of the lib's result passes through untouched.
const readingSchema = z.looseObject({
  layout: z.looseObject({ numaNodes: z.array(z.object({ id: z.number(), cpus: z.array(z.number()) })), onlineCpus: z.array(z.number()), npus: z.array(z.unknown()) }),
  lscpu: z.looseObject({ unknownLines: z.array(z.unknown()), problems: z.array(z.unknown()) }),
});
// The lib's result types are the contract; the schemas check the parts the page relies on.
const checkResponse = readingSchema
  .extend({ check: z.looseObject({ value: z.string(), findings: z.array(z.unknown()), bindings: z.array(z.unknown()) }) })
  .transform((body) => body as unknown as LayoutReading & { check: AffinityCheck });
const planResponse = readingSchema
  .extend({ plan: z.looseObject({ value: z.string(), env: z.string(), ranges: z.array(z.unknown()) }) })
  .transform((body) => body as unknown as LayoutReading & { plan: AffinityPlan });

export type CheckResponse = z.output<typeof checkResponse>;
export type PlanResponse = z.output<typeof planResponse>;

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export interface LayoutTexts {
  lscpu: string;
  topo?: string;
}

export const checkValue = (body: LayoutTexts & { value: string; jobNpus?: number[]; visibleDevices?: string }) =>
  fetchJson("/api/v1/affinity/check", checkResponse, post(body));

export const planValue = (body: LayoutTexts & { npus: number[]; processes?: number; reserve?: number; mode?: 1 | 2 }) =>
  fetchJson("/api/v1/affinity/plan", planResponse, post(body));
