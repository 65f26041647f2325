/** `rankscope ports check|plan`: a cluster's port findings and a conflict-free plan, against DATABASE_URL or the embedded database. */
import type { PortFinding } from "../../../lib/ports/findings";
import { choice, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, UsageError, type Command } from "../command";
import { cliActor, database } from "./accounts";

const help = `Usage: rankscope ports check --cluster SLUG [--job NAME] [--format text|json] [--lang en|zh]
       rankscope ports plan  --cluster SLUG [--job NAME] [--move JOB]... [--failover JOB:RANK,RANK]... [--apply]
                             [--format text|json|env] [--lang en|zh]

check: every port the cluster's live jobs bind on each host (HCCL_IF_BASE_PORT blocks, socket ranges, rank-table
ports, MASTER_PORT) checked against each other and the cluster's port policy (PT001 … PT009).
plan: ports for the pending jobs (and the running ones given with --move) that collide nowhere and stay inside the
policy; --failover re-plans only the named ranks of a running job. A dry run unless --apply (audited).

Options:
  --cluster SLUG     the cluster (slug or id)
  --job NAME         only this job's ports, findings or changes
  --move JOB         a running job the plan may change (repeatable)
  --failover J:R,R   ranks of a running job that were re-placed (repeatable)
  --apply            write the plan into the jobs' environment and rank tables
  --format F         text (default), json, or env (plan: export lines per job)
  --lang L           en (default) or zh
  -h, --help         show this help

Exit status: check: 0 no error finding, 1 error findings; plan: 0 a plan without errors left, 1 errors remain;
2 wrong arguments or an unknown cluster or job.

Examples:
  rankscope ports check --cluster atlas-a2-demo
  rankscope ports plan --cluster atlas-a2-demo --job llama --format env
`;

const findingLine = (f: PortFinding, lang: "en" | "zh") => `${f.severity} ${f.code} ${f.message[lang]}\n`;

export const portsCommand: Command = {
  name: "ports",
  summary: "check a cluster's job ports and plan conflict-free ones",
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      cluster: { type: "string" },
      job: { type: "string" },
      move: { type: "string", multiple: true },
      failover: { type: "string", multiple: true },
      apply: { type: "boolean" },
      format: { type: "string" },
      lang: { type: "string" },
    });
    if (values.help || positionals.length === 0) {
      io.stdout(help);
      return values.help ? EXIT_OK : EXIT_TROUBLE;
    }
    const [action, ...extra] = positionals;
    if (action !== "check" && action !== "plan") throw new UsageError(`unknown ports action ${JSON.stringify(action)}; the actions are check and plan`);
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    if (!values.cluster) throw new UsageError("--cluster SLUG is required");
    const lang = choice("lang", values.lang, ["en", "zh"] as const, "en");
    const format = choice("format", values.format, action === "plan" ? (["text", "json", "env"] as const) : (["text", "json"] as const), "text");
    const failover = (values.failover ?? []).map((f) => {
      const match = /^(.+):(\d+(?:,\d+)*)$/.exec(f);
      if (!match) throw new UsageError(`--failover takes JOB:RANK[,RANK…], not ${JSON.stringify(f)}`);
      return { job: match[1]!, ranks: match[2]!.split(",").map(Number) };
    });
    const [{ clusterPortPlan, clusterPortReport }, { DomainError }] = await Promise.all([import("../../../db/queries/ports"), import("../../../lib/errors")]);
    return database(async ({ db }) => {
      try {
        if (action === "check") {
          const report = await clusterPortReport(db, values.cluster!, values.job);
          if (format === "json") io.stdout(`${JSON.stringify(report, null, 2)}\n`);
          else {
            for (const f of report.findings) io.stdout(findingLine(f, lang));
            const s = report.summary;
            io.stdout(lang === "en" ? `${s.jobs} job(s), ${s.bindings} port bindings on ${s.hosts} host(s): ${s.errors} error(s), ${s.warnings} warning(s)\n` : `${s.jobs} 个作业，${s.hosts} 台主机上 ${s.bindings} 处端口绑定：${s.errors} 个错误，${s.warnings} 个警告\n`);
          }
          return report.summary.errors > 0 ? EXIT_FINDINGS : EXIT_OK;
        }
        const plan = await clusterPortPlan(db, values.cluster!, { move: values.move, failover, job: values.job, apply: values.apply ?? false }, cliActor());
        if (format === "json") io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
        else if (format === "env") for (const job of plan.jobs) io.stdout(`# job ${job.name}\n${job.env}`);
        else {
          io.stdout(plan.diff[lang]);
          for (const f of plan.findings) io.stdout(findingLine(f, lang));
          io.stdout(`${plan.changes.length} change(s)${plan.dryRun ? " (dry run: --apply writes them)" : `, applied to ${plan.applied.length} job(s)`}\n`);
        }
        return plan.findings.some((f) => f.severity === "error") ? EXIT_FINDINGS : EXIT_OK;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        io.stderr(`rankscope ports: ${error.message}\n`);
        return EXIT_TROUBLE;
      }
    });
  },
};
