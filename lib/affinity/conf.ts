/**
 * The CPU_AFFINITY_CONF value, read the way torch_npu reads it.
 *
 * Reference: Ascend/pytorch docs `docs/en/api/environment_variable/CPU_AFFINITY_CONF.md` ("CPU_AFFINITY_CONF=<mode>,
 * force:<value0>,npu<value1>:<value2>-<value3>,npu_affine:<value4>"; older `environment_variable_reference/` lacks
 * `force`) and the seed's "CPU_AFFINITY_CONF 使用说明" (`mode:1`, `mode:2`, `npu0:0-2`, closed intervals).
 * Parser: Ascend/pytorch `torch_npu/csrc/core/npu/NPUAffinityController.cpp` (`parseCPUAffinityConf` @00d21b2c):
 * split on `,` without trimming; an all-digit token or `mode:<digits>` sets the mode (the last one wins);
 * `npu<id>:<a>-<b>` or `npu<id>:<a>` sets the range of device <id> only when id < the number of devices the
 * process sees; any other key is ignored silently. The value may be pasted as `export CPU_AFFINITY_CONF="…"`.
 */

export type ConfToken =
  | { readonly kind: "mode"; readonly text: string; readonly start: number; readonly mode: number | null; readonly raw: string }
  | { readonly kind: "range"; readonly text: string; readonly start: number; readonly npu: number; readonly from: number; readonly to: number }
  | { readonly kind: "newer_option"; readonly text: string; readonly start: number; readonly key: string; readonly value: string }
  | { readonly kind: "unknown_option"; readonly text: string; readonly start: number; readonly key: string }
  | { readonly kind: "malformed"; readonly text: string; readonly start: number; readonly reason: MalformedReason };

export type MalformedReason = "empty" | "spaces" | "range" | "no_value";

export interface ParsedConf {
  /** The value itself, without `export CPU_AFFINITY_CONF=` and quotes. */
  readonly value: string;
  /** Where the value starts in what was typed, so token offsets can mark the input. */
  readonly offset: number;
  readonly tokens: readonly ConfToken[];
  /** The mode torch_npu ends up with: the last mode token, 0 when none. */
  readonly mode: number;
}

// Options newer torch_npu versions read (the newest doc); older ones ignore them without a word.
const NEWER_OPTIONS = new Set(["force", "npu_affine"]);
const PREFIX = /^\s*(?:export\s+)?(?:CPU_AFFINITY_CONF\s*=\s*)?(["']?)/;

export function parseAffinityConf(input: string): ParsedConf {
  const prefix = PREFIX.exec(input)?.[0] ?? "";
  const quote = prefix.trim().endsWith('"') || prefix.trim().endsWith("'") ? prefix.trim().at(-1) : undefined;
  let value = input.slice(prefix.length);
  value = value.replace(/\s+$/, "");
  if (quote !== undefined && value.endsWith(quote)) value = value.slice(0, -1);
  const tokens: ConfToken[] = [];
  let start = 0;
  let mode = 0;
  if (value.trim() !== "") {
    for (const text of value.split(",")) {
      const token = readToken(text, start);
      if (token.kind === "mode" && token.mode !== null) mode = token.mode;
      tokens.push(token);
      start += text.length + 1;
    }
  }
  return { value, offset: prefix.length, tokens, mode };
}

function readToken(text: string, start: number): ConfToken {
  if (text === "") return { kind: "malformed", text, start, reason: "empty" };
  if (text !== text.trim()) return { kind: "malformed", text, start, reason: "spaces" };
  if (/^\d+$/.test(text)) return { kind: "mode", text, start, mode: Number(text), raw: text };
  const colon = text.indexOf(":");
  if (colon < 0) return { kind: "malformed", text, start, reason: "no_value" };
  const key = text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (key === "mode") return { kind: "mode", text, start, mode: /^\d+$/.test(value) ? Number(value) : null, raw: value };
  const npu = /^npu(\d+)$/.exec(key);
  if (npu !== null) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(value);
    if (range === null) return { kind: "malformed", text, start, reason: "range" };
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    return { kind: "range", text, start, npu: Number(npu[1]), from, to };
  }
  if (NEWER_OPTIONS.has(key)) return { kind: "newer_option", text, start, key, value };
  return { kind: "unknown_option", text, start, key };
}

/**
 * The range torch_npu binds device `device` to without an override: the online CPUs split into blocks of
 * ceil(cores / devices), by CPU number (`GetCPUDefaultRange`). `devices` is what the process sees.
 */
export function defaultRange(device: number, devices: number, cores: number): { from: number; to: number } {
  const block = Math.ceil(cores / devices);
  return { from: device * block, to: Math.min((device + 1) * block, cores) - 1 };
}

/** `ASCEND_RT_VISIBLE_DEVICES` → physical NPU numbers in logical order, or null when malformed. */
export function parseVisibleDevices(text: string): number[] | null {
  const parts = text.trim().split(",").map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part))) return null;
  return parts.map(Number);
}
