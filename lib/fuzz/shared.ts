/**
 * Fuzzing every parser that takes outside input (issue 13), one file per parser so that `npm run fuzz` runs them
 * side by side: the rank-table engine (parse, validate, every repair, the canonical writer, the legacy conversion),
 * hccn.conf, the device-info ConfigMap parser, the fault CSV import and the HCCL log diagnoser, on generated text
 * and values — broken JSON, deep nesting, huge and hostile strings, mutated real inputs. None may throw anything
 * but its own typed error (DeviceInfoError), and every report stays bounded.
 *
 * `npm test` runs FUZZ_RUNS (default 300) inputs per parser; `npm run fuzz` runs 200,000 per parser (a million in
 * all, five files on two workers) and prints the count and time of each. A failure prints fast-check's seed and the
 * shrunk input, so it replays.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { validateRankTable } from "../rank-table";
import { REPORT_LIMITS } from "../report-limits";

export const runs = Number(process.env.FUZZ_RUNS ?? 300);
// Generous: a loaded CI machine took 16 ms per rank-table input; the default 300 runs take seconds.
export const timeout = Math.max(120_000, runs * 50);

/** Runs a property and, for `npm run fuzz` (FUZZ_REPORT=1), prints how many inputs it took and how long. */
export function check<Ts extends [unknown, ...unknown[]]>(name: string, property: fc.IProperty<Ts>): void {
  const started = performance.now();
  fc.assert(property, { numRuns: runs });
  if (process.env.FUZZ_REPORT === "1") console.log(`fuzz ${name}: ${runs} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Text that hurts parsers: NUL, lone surrogates, BOMs, line separators, quotes, huge repeats. */
export const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\u0000", "\ud800", "\udc00x", "\ufeff", "\u2028", '"', "\\", "'=1+1", "\r", "\n\n", "0x", "-1", "1e309", "__proto__", "constructor"),
  fc.integer({ min: 1, max: 5000 }).map((n) => "a".repeat(n)),
);

/** Mutations of a real input: insert, delete or replace a slice with something hostile. */
export function mutated(seed: string): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.nat(), fc.nat({ max: 20 }), hostileString), { minLength: 1, maxLength: 4 })
    .map((edits) => edits.reduce((text, [at, cut, insert]) => {
      const index = at % (text.length + 1);
      return text.slice(0, index) + insert + text.slice(index + cut);
    }, seed));
}

/** Deep nesting of arrays or objects, as text, sometimes unterminated. */
export const deepText = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.boolean(), fc.boolean()).map(([depth, objects, closed]) => {
  const open = objects ? '{"a":' : "[";
  const close = objects ? "}" : "]";
  return `{"version":"1.0","server_list":${open.repeat(depth)}0${closed ? close.repeat(depth) : ""}}`;
});

export function expectBoundedReport(report: ReturnType<typeof validateRankTable>): void {
  expect(report.issues.length).toBeLessThanOrEqual(REPORT_LIMITS.total);
  for (const issue of report.issues) expect(issue.message.length).toBeLessThan(2000);
}
