import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import {
  generateA5Table,
  generateFromHccn,
  generateFromTemplate,
  PatternError,
  validateRankTable,
  writeRankTable,
  type HccnServer,
  type A5RankTable,
  type A5Template,
  type RankTable,
  type RankTableTemplate,
} from "../../../lib/rank-table";
import { isPlainIPv4 } from "../../../lib/rank-table/net";
import { choice, describeError, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, wholeNumber, type Command } from "../command";
import type { CliIo } from "../io";
import { formatIssue } from "../report";
import { writeOutput } from "./fmt";

const VERSIONS = ["1.0", "1.2"] as const;

const templateSchema = z.strictObject({
  version: z.enum(VERSIONS).optional(),
  status: z.enum(["completed", "initializing"]).optional(),
  superPods: z.int().min(1).optional(),
  serversPerSuperPod: z.int().min(1).optional(),
  npusPerServer: z.int().min(1).optional(),
  diesPerNpu: z.int().min(1).optional(),
  serverId: z.string().optional(),
  hostIp: z.string().nullable().optional(),
  deviceIp: z.string().nullable().optional(),
  superPodId: z.string().optional(),
  superDeviceId: z.string().optional(),
  backup: z.boolean().optional(),
  basePort: z.int().min(1).max(65535).optional(),
});

export const generateCommand: Command = {
  name: "generate",
  summary: "generate a rank table from a template or from hccn.conf files",
  help: `Usage: rankscope generate [--template FILE] [--version 1.0|1.2] [--super-pods N] [--servers N] [--npus N]
                          [--dies N] [--base-port PORT] [--no-backup] [--output FILE]
       rankscope generate --hccn DIR [--hosts FILE] [--version 1.0|1.2] [--base-port PORT] [--no-backup]
                          [--output FILE]
       rankscope generate --version 2.0 [--racks N] [--npus N] [--output FILE]
       rankscope generate --version 2.0 --super-pods N [--racks N] [--npus N] --output DIR

From a template: super pods x servers x NPUs x dies. The template file (JSON or YAML) may set version,
status, superPods, serversPerSuperPod, npusPerServer, diesPerNpu, backup, basePort and the patterns serverId,
hostIp, deviceIp, superPodId, superDeviceId, e.g. "10.{server/256}.{server%256}.{device}". Pattern variables:
pod, server, local (server within its super pod), npu, die, device (device_id), devices (per server); operators
+ - * / % and parentheses. Options on the command line override the file. Defaults: version 1.2, 1 super pod,
1 server, 8 NPUs, 2 dies, backups paired, no ports.

Version 2.0 (Atlas 350/850/950): one SuperPoD of --racks racks (default 1) of --npus NPUs (default 64, at
most 65), one rank per NPU; net_layer 0 is the rack (TOPO_FILE_DESC), net_layer 1 the SuperPoD (CLOS), each die
an EID address per level (placeholders of the right form: the real EIDs come from hccn_tool). With
--super-pods N (N > 1) it writes a SuperCluster: one table per SuperPoD, DIR/superpod0.json … (a "2.0" table holds
at most 65,536 ranks), with EIDs unique across them; "rankscope cluster add SLUG --from DIR" imports them all.

From hccn.conf files: DIR holds one copy of /etc/hccn.conf per server; its address_N= lines give the NIC address
of device N. The file name (without .conf) is the server_id, and the host_ip when it is an IPv4 address.
--hosts FILE lists "server_id host_ip [super_pod_id]" per line and sets the order. Default version here: 1.0
(as generator scripts write); in 1.2 super_device_id is numbered 0, 1, 2... within each super pod, a placeholder
for the SDIDs that "npu-smi info -t spod-info" reports.

The table goes to standard output (or --output FILE, written atomically); findings on it go to stderr.

Options:
  --output FILE  write the table to FILE instead of standard output
  -h, --help     show this help

Exit status: 0 the table is valid, 1 it has errors, 2 bad arguments, template or unreadable input.

Examples:
  rankscope generate --super-pods 2 --servers 48 --npus 8 --dies 2 --base-port 16666 > hccl.json
  rankscope generate --template a3-cluster.yaml --output hccl.json
  rankscope generate --hccn ./hccn-confs --hosts hosts.txt --version 1.0
  rankscope generate --version 2.0 --racks 128 > hccl.json      # an Atlas 950 SuperPoD: 8,192 ranks
  rankscope generate --version 2.0 --super-pods 64 --racks 128 --output sc/   # a SuperCluster: 524,288 NPUs
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      template: { type: "string" },
      hccn: { type: "string" },
      hosts: { type: "string" },
      version: { type: "string" },
      "super-pods": { type: "string" },
      racks: { type: "string" },
      servers: { type: "string" },
      npus: { type: "string" },
      dies: { type: "string" },
      "base-port": { type: "string" },
      "no-backup": { type: "boolean" },
      output: { type: "string" },
    });
    if (values.help) {
      io.stdout(generateCommand.help);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    if (values.template !== undefined && values.hccn !== undefined) throw new UsageError("use either --template or --hccn");
    const basePort = wholeNumber("base-port", values["base-port"]);
    const backup = values["no-backup"] ? false : undefined;

    let table: RankTable | A5RankTable;
    try {
      if (values.version === "2.0") {
        const unused = ["template", "hccn", "hosts", "servers", "dies", "base-port", "no-backup"].find((flag) => values[flag as keyof typeof values] !== undefined);
        if (unused !== undefined) throw new UsageError(`--${unused} does not apply to version 2.0 (use --super-pods, --racks and --npus)`);
        const template = { racks: wholeNumber("racks", values.racks), npusPerRack: wholeNumber("npus", values.npus) };
        const superPods = wholeNumber("super-pods", values["super-pods"]) ?? 1;
        if (superPods > 1) return await generateA5SuperCluster(io, superPods, template, values.output);
        table = generateA5Table(template);
      } else if (values.racks !== undefined) {
        throw new UsageError("--racks is for --version 2.0");
      } else if (values.hccn !== undefined) {
        const servers = await readHccnDirectory(io, values.hccn, values.hosts);
        if (servers === undefined) return EXIT_TROUBLE;
        const version = choice("version", values.version, VERSIONS, "1.0");
        table = generateFromHccn(servers, { version, backup, basePort });
      } else {
        const template = values.template === undefined ? {} : await readTemplate(io, values.template);
        if (template === undefined) return EXIT_TROUBLE;
        const overrides: RankTableTemplate = {
          version: values.version === undefined ? undefined : choice("version", values.version, VERSIONS, "1.2"),
          superPods: wholeNumber("super-pods", values["super-pods"]),
          serversPerSuperPod: wholeNumber("servers", values.servers),
          npusPerServer: wholeNumber("npus", values.npus),
          diesPerNpu: wholeNumber("dies", values.dies),
          basePort,
          backup,
        };
        for (const [key, value] of Object.entries(overrides)) if (value !== undefined) Object.assign(template, { [key]: value });
        table = generateFromTemplate(template);
      }
    } catch (error) {
      if (error instanceof RangeError || error instanceof PatternError) throw new UsageError(error.message);
      throw error;
    }

    const output = writeRankTable(table);
    const report = validateRankTable(output);
    const name = values.output ?? "<generated>";
    for (const issue of report.issues) io.stderr(`${formatIssue(name, issue, false)}\n`);
    if (values.output === undefined) io.stdout(output);
    else if (!(await writeOutput(io, values.output, output))) return EXIT_TROUBLE;
    return report.valid ? EXIT_OK : EXIT_FINDINGS;
  },
};

/**
 * An Atlas 950 SuperCluster: one "2.0" table per SuperPoD (HCCL's A5 reference caps a table at 65,536 ranks, and
 * a SuperCluster of 64 SuperPoDs has 524,288), written as DIR/superpod<i>.json; `rankscope cluster add --from DIR`
 * reads them back one at a time. Each table is generated, written and validated alone, so memory is one pod's.
 */
async function generateA5SuperCluster(io: CliIo, superPods: number, template: A5Template, directory: string | undefined): Promise<number> {
  if (directory === undefined) throw new UsageError("--super-pods N (N > 1) with --version 2.0 writes one table per super pod: --output DIR is required");
  try {
    await io.makeDirectory(directory);
  } catch (error) {
    io.stderr(`rankscope: cannot create ${directory}: ${describeError(error)}\n`);
    return EXIT_TROUBLE;
  }
  let valid = true;
  for (let index = 0; index < superPods; index++) {
    const superPodId = `superpod${index}`;
    const path = join(directory, `${superPodId}.json`);
    const output = writeRankTable(generateA5Table({ ...template, superPodId, superPodIndex: index }));
    const report = validateRankTable(output);
    for (const issue of report.issues) io.stderr(`${formatIssue(path, issue, false)}\n`);
    valid &&= report.valid;
    if (!(await writeOutput(io, path, output))) return EXIT_TROUBLE;
  }
  return valid ? EXIT_OK : EXIT_FINDINGS;
}

async function readTemplate(io: CliIo, path: string): Promise<RankTableTemplate | undefined> {
  const text = await readInput(io, path);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (error) {
    throw new UsageError(`template ${path} is not JSON or YAML: ${describeError(error)}`);
  }
  const parsed = templateSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`);
    throw new UsageError(`template ${path}: ${problems.join("; ")}`);
  }
  return parsed.data;
}

const naturalOrder = new Intl.Collator("en", { numeric: true }).compare;

/** Reads DIR/* as hccn.conf copies, one per server, in --hosts order or natural file-name order. */
async function readHccnDirectory(io: CliIo, directory: string, hostsPath: string | undefined): Promise<HccnServer[] | undefined> {
  let names: string[];
  try {
    names = (await io.listFiles(directory)).sort(naturalOrder);
  } catch (error) {
    io.stderr(`rankscope: cannot read ${directory}: ${describeError(error)}\n`);
    return undefined;
  }
  const fileByServer = new Map(names.map((name) => [name.replace(/\.conf$/, ""), name]));
  let entries: { serverId: string; hostIp?: string; superPodId?: string }[];
  if (hostsPath === undefined) {
    entries = [...fileByServer.keys()].map((serverId) => ({ serverId, hostIp: isPlainIPv4(serverId) ? serverId : undefined }));
  } else {
    const hosts = await readInput(io, hostsPath);
    if (hosts === undefined) return undefined;
    entries = parseHosts(hosts);
  }
  if (entries.length === 0) throw new UsageError(`no hccn.conf files in ${directory}`);
  const servers: HccnServer[] = [];
  for (const entry of entries) {
    const file = fileByServer.get(entry.serverId) ?? (entry.hostIp === undefined ? undefined : fileByServer.get(entry.hostIp));
    if (file === undefined) throw new UsageError(`no hccn.conf for server ${entry.serverId} in ${directory}`);
    const hccnConf = await readInput(io, join(directory, file));
    if (hccnConf === undefined) return undefined;
    servers.push({ ...entry, hccnConf });
  }
  return servers;
}

/** "server_id host_ip [super_pod_id]" per line; blank lines and # comments ignored. */
function parseHosts(text: string): { serverId: string; hostIp?: string; superPodId?: string }[] {
  const entries = [];
  for (const line of text.split(/\r?\n/)) {
    const fields = line.replace(/#.*/, "").trim().split(/\s+/).filter(Boolean);
    if (fields.length === 0) continue;
    const [serverId, hostIp, superPodId] = fields as [string, string?, string?];
    entries.push({ serverId, hostIp, superPodId });
  }
  return entries;
}
