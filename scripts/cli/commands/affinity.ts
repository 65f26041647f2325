/** `rankscope affinity check|plan`: CPU_AFFINITY_CONF against a server's lscpu and npu-smi topo outputs (lib/affinity). */
import { checkAffinity } from "../../../lib/affinity/check";
import { formatCpuList, parseCpuList } from "../../../lib/affinity/cpu-list";
import { readLayout, type LayoutReading } from "../../../lib/affinity/layout";
import { planAffinity } from "../../../lib/affinity/plan";
import { DomainError } from "../../../lib/errors";
import { choice, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, wholeNumber, type Command } from "../command";
import type { CliIo } from "../io";

const help = `Usage: rankscope affinity check VALUE --lscpu FILE [--topo FILE] [--visible-devices LIST] [--job-npus LIST]
                          [--format text|json] [--lang en|zh]
       rankscope affinity plan --lscpu FILE [--topo FILE] --npus LIST [--processes N] [--reserve K] [--mode 1|2]
                          [--format text|json|env] [--lang en|zh]
       rankscope affinity plan --job ID [--reserve K] [--mode 1|2] [--format text|json|env] [--lang en|zh]

check: reads a CPU_AFFINITY_CONF value (mode:1, mode:2, npu<N>:<a>-<b>, …; "export CPU_AFFINITY_CONF=…" works too)
the way torch_npu does and checks it against the server: syntax and options, ranges outside the online CPUs,
ranges crossing NUMA nodes or off their NPU's node, overlaps between NPUs, overrides for NPUs the job does not use,
npu<N> numbering under ASCEND_RT_VISIBLE_DEVICES, and mode:1 where the NPU-to-NUMA mapping is not the default.
Findings have stable codes CA001–CA016, each with its fix.

plan: proposes a value for the job's NPUs on the server: mode:1 alone when torch_npu's default blocks sit on each
NPU's NUMA node, else non-overlapping ranges on each NPU's own node, keeping K cores per node free.
With --job, against DATABASE_URL or the embedded database: the job's CPU_AFFINITY_CONF checked and a value planned
on the stored CPU layout of each server model it runs on (or each server where a model's servers differ).

Options:
  --lscpu FILE            the server's lscpu output (English or Chinese; "-" reads standard input)
  --topo FILE             the server's "npu-smi info -t topo" output (each NPU's CPU Affinity; needed by plan)
  --visible-devices LIST  check: the job's ASCEND_RT_VISIBLE_DEVICES (e.g. 4,5)
  --job-npus LIST         check: the physical NPUs the job uses on the server (e.g. 0-3)
  --npus LIST             plan: the job's NPUs on the server, e.g. 0-7 or 0,2,4,6
  --job ID                plan: a job of the inventory instead of --lscpu/--topo/--npus (one line per server group)
  --processes N           plan: processes of the job on the server, one per NPU (default: one per NPU named)
  --reserve K             plan: cores kept free on every NUMA node used (default 0)
  --mode 1|2              plan: 1 binds each process to its range; 2 also pins the main threads (default 1)
  --format                text (default); json: the full result (plan's JSON carries "value"); env (plan): the
                          export lines only
  --lang en|zh            language of messages (default en)
  -h, --help              show this help

Exit status: 0 no error finding / a plan was made, 1 error findings / no plan fits this server, 2 a file cannot
be read or is not lscpu output, or the arguments are wrong.

Examples:
  rankscope affinity check "mode:1,npu0:0-23,npu1:24-47" --lscpu lscpu.txt --topo topo.txt
  rankscope affinity plan --lscpu lscpu.txt --topo topo.txt --npus 0-7 --reserve 2 --format env
  rankscope affinity plan --job 12 --reserve 2 --format env
`;

function cpuListOption(name: string, value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const list = parseCpuList(value);
  if (list === null || list.length === 0) throw new UsageError(`--${name} must be a list such as 0-7 or 0,2,4, not ${JSON.stringify(value)}`);
  return list;
}

async function readServer(io: CliIo, lscpuPath: string | undefined, topoPath: string | undefined): Promise<LayoutReading | undefined> {
  if (lscpuPath === undefined) throw new UsageError("--lscpu FILE is required");
  const lscpu = await readInput(io, lscpuPath);
  const topo = topoPath === undefined ? undefined : await readInput(io, topoPath);
  if (lscpu === undefined || (topoPath !== undefined && topo === undefined)) return undefined;
  try {
    const reading = readLayout(lscpu, topo);
    for (const [file, part] of [[lscpuPath, reading.lscpu], [topoPath, reading.topo]] as const) {
      for (const line of part?.unknownLines ?? []) io.stderr(`rankscope: ${file}:${line.line}: not understood, skipped: ${line.text.trim()}\n`);
      for (const problem of part?.problems ?? []) io.stderr(`rankscope: ${file}:${problem.line}: ${problem.message.en}\n`);
    }
    return reading;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    io.stderr(`rankscope: ${lscpuPath}: ${error.message}\n`);
    return undefined;
  }
}

function describeServer(reading: LayoutReading): string {
  const { layout } = reading;
  return `${layout.modelName ?? "server"}: ${layout.onlineCpus.length} CPUs, ${layout.numaNodes.length} NUMA node(s), ${layout.npus.length} NPU(s) with affinity`;
}

async function check(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    lscpu: { type: "string" },
    topo: { type: "string" },
    "visible-devices": { type: "string" },
    "job-npus": { type: "string" },
    format: { type: "string" },
    lang: { type: "string" },
  });
  const format = choice("format", values.format, ["text", "json"], "text");
  const lang = choice("lang", values.lang, ["en", "zh"], "en");
  if (positionals.length !== 1) throw new UsageError("give the CPU_AFFINITY_CONF value to check (quote it), once");
  const jobNpus = cpuListOption("job-npus", values["job-npus"]);
  const reading = await readServer(io, values.lscpu, values.topo);
  if (reading === undefined) return EXIT_TROUBLE;
  const result = checkAffinity({ value: positionals[0] ?? "", layout: reading.layout, jobNpus, visibleDevices: values["visible-devices"] });
  if (format === "json") io.stdout(`${JSON.stringify({ ...reading, check: result }, null, 2)}\n`);
  else {
    io.stdout(`CPU_AFFINITY_CONF=${result.value} on ${describeServer(reading)}\n`);
    for (const f of result.findings) io.stdout(`${f.severity} ${f.code} ${f.message[lang]}\n  ${lang === "zh" ? "修复" : "fix"}: ${f.fix[lang]}\n`);
    for (const b of result.bindings.filter((binding) => binding.used)) {
      const where = `${b.physicalNpu === null ? "" : `NPU ${b.physicalNpu}, `}node ${b.numaNode ?? "?"}`;
      io.stdout(`  npu${b.npu} (${where}): ${formatCpuList(b.cpus) || "-"} (${b.source})\n`);
    }
    io.stdout(lang === "zh" ? `${result.errors} 个错误，${result.warnings} 个警告\n` : `${result.errors} error(s), ${result.warnings} warning(s)\n`);
  }
  return result.errors > 0 ? EXIT_FINDINGS : EXIT_OK;
}

async function plan(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    lscpu: { type: "string" },
    topo: { type: "string" },
    npus: { type: "string" },
    job: { type: "string" },
    processes: { type: "string" },
    reserve: { type: "string" },
    mode: { type: "string" },
    format: { type: "string" },
    lang: { type: "string" },
  });
  const format = choice("format", values.format, ["text", "json", "env"], "text");
  const lang = choice("lang", values.lang, ["en", "zh"], "en");
  const mode = Number(choice("mode", values.mode, ["1", "2"], "1")) as 1 | 2;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.job !== undefined) {
    if (values.lscpu !== undefined || values.topo !== undefined || values.npus !== undefined || values.processes !== undefined) {
      throw new UsageError("--job takes the servers' stored layouts and the job's NPUs: leave out --lscpu, --topo, --npus and --processes");
    }
    if (!/^\d{1,9}$/.test(values.job)) throw new UsageError(`--job takes a job id (a number), not ${JSON.stringify(values.job)}`);
    return planJob(Number(values.job), { reserve: wholeNumber("reserve", values.reserve), mode }, format, lang, io);
  }
  const npus = cpuListOption("npus", values.npus);
  if (npus === undefined) throw new UsageError("--npus LIST is required (e.g. 0-7)");
  const processes = wholeNumber("processes", values.processes);
  const reserve = wholeNumber("reserve", values.reserve);
  const reading = await readServer(io, values.lscpu, values.topo);
  if (reading === undefined) return EXIT_TROUBLE;
  let result;
  try {
    result = planAffinity({ layout: reading.layout, npus, processes, reserve, mode });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    io.stderr(`rankscope affinity plan: ${error.message}\n`);
    return EXIT_FINDINGS;
  }
  if (format === "json") io.stdout(`${JSON.stringify({ ...reading, plan: result }, null, 2)}\n`);
  else if (format === "env") io.stdout(`${result.env}\n`);
  else {
    io.stdout(`${describeServer(reading)}\n${result.env}\n`);
    for (const range of result.ranges) io.stdout(`  npu${range.npu} (NPU ${range.physicalNpu}, node ${range.numaNode}): ${range.cpus} (${range.count} cores)\n`);
    for (const reserved of result.reserved) io.stdout(`  node ${reserved.node}: ${reserved.cpus} ${lang === "zh" ? "保留" : "kept free"}\n`);
    for (const explanation of result.explanations) io.stdout(`- ${explanation[lang]}\n`);
  }
  return EXIT_OK;
}

/** `plan --job`: one check and plan per server group of the job, from the database. */
async function planJob(id: number, options: { reserve?: number; mode: 1 | 2 }, format: string, lang: "en" | "zh", io: CliIo): Promise<number> {
  const [{ loadJobAffinity }, { database }] = await Promise.all([import("../../../db/queries/job-affinity"), import("./accounts")]);
  return database(async ({ db }) => {
    let view;
    try {
      view = await loadJobAffinity(db, id, options);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      io.stderr(`rankscope affinity plan: ${error.message}\n`);
      return EXIT_TROUBLE;
    }
    if (format === "json") io.stdout(`${JSON.stringify(view, null, 2)}\n`);
    else if (format === "env") io.stdout(view.env === "" ? "" : `${view.env}\n`);
    else {
      io.stdout(`job ${view.jobId} (${view.cluster}): CPU_AFFINITY_CONF=${view.value ?? "(not set)"}\n`);
      for (const group of view.groups) {
        io.stdout(`\n${group.model}: ${group.servers.join(", ")} (NPUs ${formatCpuList(group.npus)})\n`);
        if (group.check) {
          for (const f of group.check.findings) io.stdout(`  ${f.severity} ${f.code} ${f.message[lang]}\n`);
        }
        if (group.plan) {
          io.stdout(`${group.plan.env.replace(/^/gm, "  ")}\n`);
          for (const explanation of group.plan.explanations) io.stdout(`  - ${explanation[lang]}\n`);
        } else io.stdout(`  ${lang === "zh" ? "无方案" : "no plan"}: ${group.planError?.message}\n`);
      }
      for (const server of view.withoutLayout) io.stdout(`\n${server.serverId} (${server.model}): ${lang === "zh" ? "未保存 CPU 布局" : "no stored CPU layout"}\n`);
    }
    return view.groups.length > 0 && view.groups.every((group) => group.plan !== null) ? EXIT_OK : EXIT_FINDINGS;
  });
}

export const affinityCommand: Command = {
  name: "affinity",
  summary: "check or plan CPU_AFFINITY_CONF against a server's lscpu and npu-smi topo (CA001–CA016)",
  help,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === "--help" || sub === "-h" || rest.includes("--help") || rest.includes("-h")) {
      io.stdout(help);
      return EXIT_OK;
    }
    if (sub === "check") return check(rest, io);
    if (sub === "plan") return plan(rest, io);
    throw new UsageError(`unknown subcommand ${JSON.stringify(sub)} (check or plan)`);
  },
};
