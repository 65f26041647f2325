import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateFailedJobLogs, LogDiagnoser } from "../hccl-diagnose";
import { check, hostileString, mutated, timeout } from "./shared";

// A small failed job's plogs (lib/hccl-diagnose/fixtures.ts): each rank's file, as the diagnoser reads real ones.
const job = generateFailedJobLogs({ phase: "init", servers: 2, devicesPerServer: 2, culpritRank: 1, bytesPerRank: 1024 });
const seedFiles = [...job.files()];
/** The job's rank table with one server's devices cut short: the diagnoser must cope with a table that does not fit its logs. */
const mutatedTable = job.rankTable.replace(/"device":\s*\[\s*\{[^}]*\}\s*,/, "\"device\": [");

describe("fuzzing the HCCL log diagnoser (issue 13)", () => {
  it("HCCL logs: reading mutated and hostile files, as text or bytes cut anywhere, never throws", () => {
    const file = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...seedFiles).chain((seed) => mutated(seed.text).map((text) => ({ path: seed.path, text }))) },
      { weight: 1, arbitrary: fc.tuple(hostileString, fc.string({ unit: "binary", maxLength: 300 })).map(([path, text]) => ({ path, text })) },
    );
    const input = fc.record({
      files: fc.array(file, { minLength: 1, maxLength: 3 }),
      cut: fc.nat(),
      asBytes: fc.boolean(),
      rankTable: fc.option(fc.constantFrom(job.rankTable, mutatedTable)),
    });
    check(
      "hccl-log",
      fc.property(input, ({ files, cut, asBytes, rankTable }) => {
        const diagnoser = new LogDiagnoser(rankTable === null ? {} : { rankTable });
        for (const { path, text } of files) {
          diagnoser.addFile(path);
          const at = cut % (text.length + 1);
          if (asBytes) {
            const bytes = Buffer.from(text);
            diagnoser.addBytes(bytes.subarray(0, at % (bytes.length + 1)));
            diagnoser.addBytes(bytes.subarray(at % (bytes.length + 1)));
          } else {
            diagnoser.addChunk(text.slice(0, at));
            diagnoser.addChunk(text.slice(at));
          }
        }
        expect(diagnoser.finish().stats.files).toBe(files.length);
      }),
    );
  }, timeout);
});
