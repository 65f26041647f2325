import { z } from "zod";
import { faultLevels } from "@/lib/faults/levels";
import { faultKinds } from "@/lib/faults/model";

const list = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .optional()
    .transform((text) => (text ? text.split(",").filter((v): v is T => (values as readonly string[]).includes(v)) : []))
    .catch([]);
const ms = z.coerce.number().int().min(0).max(8_640_000_000_000).optional().catch(undefined);

/**
 * The faults page's URL state: cluster, tab, the window (`from`/`to`, ms; default the last 24 h), the zoom inside it
 * (`zf`/`zt`), the brushed range (`bf`/`bt`), filters, the open swimlanes (`open=pod:0,server:sp0-node01`), and the
 * selected event. A pasted link opens the same view.
 */
export const faultsSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  tab: z.enum(["timeline", "statistics", "trends", "device-info", "import", "reference"]).catch("timeline").default("timeline"),
  from: ms,
  to: ms,
  zf: ms,
  zt: ms,
  bf: ms,
  bt: ms,
  kind: list(faultKinds),
  level: list(faultLevels),
  code: z.string().max(64).optional().catch(undefined),
  target: z.string().max(200).optional().catch(undefined),
  state: z.enum(["all", "open", "closed"]).catch("all").default("all"),
  open: z
    .string()
    .max(4000)
    .optional()
    .transform((text) => (text ? text.split(",").filter(Boolean) : []))
    .catch([]),
  sel: z.string().max(300).optional().catch(undefined),
});
export type FaultsSearchParams = z.infer<typeof faultsSearchParams>;

/** How often the live window (no from/to in the URL: the last 24 h) moves on: the page's clock ticks this often too. */
export const liveWindowStepMs = 15_000;

/**
 * The end of the live window at `now`: the next whole step, the same for every browser within it, so the people
 * watching a cluster ask the same question and the server answers it once (server/faults/read-cache.ts); rounded up,
 * so nothing that happened by `now` is left out.
 */
export function liveWindowEnd(now: number): number {
  return Math.ceil(now / liveWindowStepMs) * liveWindowStepMs;
}

/** The URL query for a state, leaving defaults out. */
export function faultsQuery(state: Partial<FaultsSearchParams>): string {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | undefined | null) => {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  };
  set("cluster", state.cluster);
  if (state.tab && state.tab !== "timeline") set("tab", state.tab);
  for (const key of ["from", "to", "zf", "zt", "bf", "bt"] as const) set(key, state[key]);
  if (state.kind?.length) set("kind", state.kind.join(","));
  if (state.level?.length) set("level", state.level.join(","));
  set("code", state.code);
  set("target", state.target);
  if (state.state && state.state !== "all") set("state", state.state);
  if (state.open?.length) set("open", state.open.join(","));
  set("sel", state.sel);
  return params.toString();
}

/** The fault settings page's URL state: which cluster (default the first). */
export const faultSettingsSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
});
export type FaultSettingsSearchParams = z.infer<typeof faultSettingsSearchParams>;
