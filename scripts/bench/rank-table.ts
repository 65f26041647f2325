/**
 * Rank-table engine speed: for 16,384 ranks (1,024 Atlas A3 servers × 16 dies) and 131,072 ranks (8,192 servers),
 * JSON.parse of the text against our parse + validate of the same text, the canonical writer, and peak memory.
 * Each size runs in its own child process (fork), so its peak RSS is its own and one size's garbage cannot slow
 * the other. Each figure is the best of several runs after warm-up runs, the pieces taking turns: on a shared
 * machine the minimum is the most repeatable measure of what code costs, and JSON.parse is measured the same way.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateFromTemplate, parseRankTable, validateRankTable, writeRankTable, type JsonValue } from "../../lib/rank-table";
import type { BenchSection } from "./index";
import { timeInTurns } from "./time-in-turns";
import { runA5Bench } from "./rank-table-a5";

const SERVERS_PER_SUPER_POD = 32;
const DIES_PER_SERVER = 16;
const SIZES = [1024, 8192] as const;

interface Figures {
  ranks: number;
  megabytes: number;
  jsonParseMs: number;
  parseMs: number;
  parseValidateMs: number;
  commentedParseValidateMs: number;
  findingsParseValidateMs: number;
  findings: number;
  writeMs: number;
  maxRssMb: number;
}


function generateText(servers: number): string {
  const table = generateFromTemplate({
    superPods: servers / SERVERS_PER_SUPER_POD,
    serversPerSuperPod: SERVERS_PER_SUPER_POD,
    npusPerServer: DIES_PER_SERVER / 2,
    diesPerNpu: 2,
    basePort: 16666,
  });
  return writeRankTable(table);
}

/** Runs in the child: measures one size and sends the figures back. */
function measure(servers: number): Figures {
  const runs = servers > 2048 ? 5 : 15;
  const text = generateText(servers);
  const report = validateRankTable(text);
  if (!report.valid || report.issues.length > 0) throw new Error(`generated table has findings: ${JSON.stringify(report.issues.slice(0, 3))}`);
  const [jsonParseMs, parseMs, parseValidateMs] = timeInTurns(runs, [
    () => JSON.parse(text),
    () => parseRankTable(text),
    () => validateRankTable(text),
  ]) as [number, number, number];
  const value = JSON.parse(text) as JsonValue;
  // A leading comment sends the text through the hand-written JSONC scanner instead of JSON.parse. And the
  // same table as a merge_hccl.py variant writes it (rank_id as a JSON number) has one RT003 per device, each
  // located in the text, which exercises the position pass.
  const commented = `// hccl.json\n${text}`;
  const numericRanks = text.replace(/"rank_id": "(\d+)"/g, '"rank_id": $1');
  const [writeMs, commentedParseValidateMs, findingsParseValidateMs] = timeInTurns(Math.ceil(runs / 2), [
    () => writeRankTable(value),
    () => validateRankTable(commented),
    () => validateRankTable(numericRanks),
  ]) as [number, number, number];
  return {
    ranks: servers * DIES_PER_SERVER,
    megabytes: text.length / 1e6,
    jsonParseMs,
    parseMs,
    parseValidateMs,
    commentedParseValidateMs,
    findingsParseValidateMs,
    findings: validateRankTable(numericRanks).issues.length,
    writeMs,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function measureInChild(servers: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--child", String(servers)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (figures) => resolve(figures as Figures));
    child.once("exit", (code) => code === 0 || reject(new Error(`bench child for ${servers} servers exited with ${code}`)));
  });
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (value: number) => `${value.toFixed(2)}×`;

function print(results: Figures[]): void {
  const rows: [string, (figures: Figures) => string][] = [
    ["text size", (f) => `${f.megabytes.toFixed(1)} MB`],
    ["JSON.parse", (f) => ms(f.jsonParseMs)],
    ["parseRankTable", (f) => ms(f.parseMs)],
    ["parse + validate", (f) => ms(f.parseValidateMs)],
    ["ratio to JSON.parse (target ≤ 3×)", (f) => ratio(f.parseValidateMs / f.jsonParseMs)],
    ["parse + validate, JSONC scanner path", (f) => `${ms(f.commentedParseValidateMs)} (${ratio(f.commentedParseValidateMs / f.jsonParseMs)})`],
    ["parse + validate, one RT003 per device", (f) => `${ms(f.findingsParseValidateMs)} (${f.findings} located findings)`],
    ["writeRankTable", (f) => ms(f.writeMs)],
    ["peak RSS of the process", (f) => `${f.maxRssMb.toFixed(0)} MB`],
  ];
  const header = ["", ...results.map((f) => `${f.ranks.toLocaleString("en")} ranks`)];
  const table = [header, ...rows.map(([label, cell]) => [label, ...results.map(cell)])];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("   "));

  const [small, large] = results as [Figures, Figures];
  const growth = large.ranks / small.ranks;
  console.log(`\ngrowth ${small.ranks.toLocaleString("en")} → ${large.ranks.toLocaleString("en")} ranks (×${growth} in size; linear ≈ ×${growth}):`);
  for (const [label, pick] of [
    ["JSON.parse", (f: Figures) => f.jsonParseMs],
    ["parse + validate", (f: Figures) => f.parseValidateMs],
    ["parse + validate with findings", (f: Figures) => f.findingsParseValidateMs],
    ["writeRankTable", (f: Figures) => f.writeMs],
  ] as const) {
    console.log(`  ${label}: ×${(pick(large) / pick(small)).toFixed(1)}`);
  }
}

export const rankTableBench: BenchSection = {
  name: "rank-table",
  description: "parse + validate vs JSON.parse, write, memory, for 16,384 and 131,072 ranks (1.2) and 8,192 and 131,072 ranks (2.0)",
  async run() {
    const results: Figures[] = [];
    for (const servers of SIZES) results.push(await measureInChild(servers));
    print(results);
    await runA5Bench();
  },
};

if (process.argv[2] === "--child") {
  process.send!(measure(Number(process.argv[3])));
}
