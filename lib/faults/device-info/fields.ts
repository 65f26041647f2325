import { DomainError } from "../../errors";
import { faultProblem, type FaultParams, type FaultProblem, type FaultReason } from "../errors";
import { faultLevels, type FaultLevel } from "../levels";

/** Field readers shared by the DeviceInfoCfg and SwitchInfoCfg parsers; each throws DeviceInfoError naming the path. */

/**
 * Malformed input (invalid, code invalid_device_info): `reason` and `params` say what (lib/faults/errors.ts), `path`
 * where, also as the error's details; the message is English.
 */
export class DeviceInfoError extends DomainError {
  readonly problem: FaultProblem;
  constructor(reason: FaultReason, params: FaultParams & { path: string }) {
    const problem = faultProblem(reason, params, { code: "invalid_device_info", path: params.path });
    super("invalid", problem.message, { code: "invalid_device_info", details: { path: problem.path, reason: problem.reason, params: problem.params } });
    this.name = "DeviceInfoError";
    this.problem = problem;
  }

  get path(): string {
    return this.problem.path ?? "body";
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function parseJsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DeviceInfoError("not_json", { path, detail: (error as Error).message });
  }
}

export function int32OrNull(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) throw new DeviceInfoError("not_integer", { path });
  return value;
}

export function names(list: string | undefined): string[] {
  return list ? list.split(",").map((n) => n.trim()).filter(Boolean) : [];
}

export function isLevel(value: unknown): value is FaultLevel {
  return typeof value === "string" && (faultLevels as readonly string[]).includes(value);
}

/** A time the plugin writes in seconds (AlarmRaisedTime, UpdateTime) or ms (fault_time): anything below 10^11 is seconds. */
export function epochMs(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return null;
  return value < 1e11 ? value * 1000 : value;
}

export function stringOrNull(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new DeviceInfoError("not_string", { path });
  return value;
}

/** Records a warning (capped by the caller, lib/report-limits.ts). */
export type Warn = (problem: FaultProblem) => void;
