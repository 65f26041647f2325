/**
 * The "2.0" part of `npm run bench -- rank-table`: an Atlas 950 SuperPoD of 8,192 ranks (128 racks × 64 NPUs) and
 * a table of 131,072 ranks (2,048 racks), JSON.parse of the text against our parse + validate, and the writer. The
 * larger table is beyond the 65,536 ranks HCCL's A5 reference allows, so it carries exactly one finding (RT100);
 * it measures the engine at the size of the largest 1.x table. Each size runs in its own child process.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateA5Table, validateRankTable, writeRankTable, type JsonValue } from "../../lib/rank-table";
import { timeInTurns } from "./time-in-turns";

const NPUS_PER_RACK = 64;
const RACKS = [128, 2048] as const;

interface A5Figures {
  ranks: number;
  megabytes: number;
  jsonParseMs: number;
  parseValidateMs: number;
  writeMs: number;
  findings: string[];
  maxRssMb: number;
}

function measureA5(racks: number): A5Figures {
  const runs = racks > 256 ? 5 : 15;
  const text = writeRankTable(generateA5Table({ racks, npusPerRack: NPUS_PER_RACK }));
  const findings = validateRankTable(text).issues.map((issue) => issue.code);
  const expected = racks * NPUS_PER_RACK > 65536 ? ["RT100"] : [];
  if (findings.join() !== expected.join()) throw new Error(`generated 2.0 table has findings ${findings.slice(0, 5).join(", ")}`);
  const [jsonParseMs, parseValidateMs] = timeInTurns(runs, [() => JSON.parse(text), () => validateRankTable(text)]) as [number, number];
  const value = JSON.parse(text) as JsonValue;
  const [writeMs] = timeInTurns(Math.ceil(runs / 2), [() => writeRankTable(value)]) as [number];
  return { ranks: racks * NPUS_PER_RACK, megabytes: text.length / 1e6, jsonParseMs, parseValidateMs, writeMs, findings, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function measureInChild(racks: number): Promise<A5Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--child-a5", String(racks)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (figures) => resolve(figures as A5Figures));
    child.once("exit", (code) => code === 0 || reject(new Error(`bench child for ${racks} racks exited with ${code}`)));
  });
}

export async function runA5Bench(): Promise<void> {
  const results: A5Figures[] = [];
  for (const racks of RACKS) results.push(await measureInChild(racks));
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const rows: [string, (figures: A5Figures) => string][] = [
    ["text size", (f) => `${f.megabytes.toFixed(1)} MB`],
    ["JSON.parse", (f) => ms(f.jsonParseMs)],
    ["parse + validate", (f) => ms(f.parseValidateMs)],
    ["ratio to JSON.parse (target ≤ 3×)", (f) => `${(f.parseValidateMs / f.jsonParseMs).toFixed(2)}×`],
    ["writeRankTable", (f) => ms(f.writeMs)],
    ["findings", (f) => (f.findings.length === 0 ? "none" : f.findings.join(", "))],
    ["peak RSS of the process", (f) => `${f.maxRssMb.toFixed(0)} MB`],
  ];
  const header = ["version 2.0", ...results.map((f) => `${f.ranks.toLocaleString("en")} ranks`)];
  const table = [header, ...rows.map(([label, cell]) => [label, ...results.map(cell)])];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("   "));
}

if (process.argv[2] === "--child-a5") {
  process.send!(measureA5(Number(process.argv[3])));
}
