/** `rankscope cluster add`: a cluster of the inventory from rank table files, against DATABASE_URL or the embedded database. */
import { clusterSlugPattern } from "../../../db/schema/cluster/constants";
import type { Issue } from "../../../lib/rank-table";
import { inventoryFromRankTable, type Inventory } from "../../../lib/topology/import";
import { EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import { runsFromSource, sourceWorker, WorkerPool } from "../../../server/workers/worker-pool";
import type { CliIo } from "../io";
import { cliActor, database } from "./accounts";

const help = `Usage: rankscope cluster add SLUG --from FILE|DIR [--name NAME]

Creates a cluster of the inventory (super pods, servers, NPUs, dies and their links) from a rank table file, or
from every *.json table of a directory in natural name order (a SuperCluster, one "2.0" table per SuperPoD, as
"rankscope generate --version 2.0 --super-pods N --output DIR" writes it), in the configured database
(DATABASE_URL, or the embedded one in .data/postgres when the console is not running). The tables of a directory
are read, checked and written one at a time, in one transaction. A table with errors is refused with its findings;
nothing is written. "-" reads standard input. The change goes to the audit log. To replace an existing cluster's
inventory, use the topology page's "Inventory from a rank table".

Options:
  --from FILE    the rank table (JSON, as HCCL reads it), or a directory of them
  --name NAME    display name (default: the slug)
  -h, --help     show this help

Exit status: 0 created, 1 a table has errors or the slug is taken, 2 wrong arguments or an unreadable file.

Examples:
  rankscope generate --super-pods 32 --servers 32 --version 1.2 > large.json
  rankscope cluster add atlas-a3-large --from large.json --name "Atlas A3, 16,384 dies"
  rankscope generate --version 2.0 --super-pods 64 --racks 128 --output sc/
  rankscope cluster add atlas-950-sc --from sc/ --name "Atlas 950 SuperCluster, 524,288 NPUs"
`;

const naturalOrder = new Intl.Collator("en", { numeric: true }).compare;

/** A table that cannot become an inventory: the import stops and writes nothing. */
class RefusedTable extends Error {
  constructor(
    readonly file: string,
    readonly issues: Issue[],
  ) {
    super(`${file} cannot become an inventory`);
  }
}

class UnreadableTable extends Error {}

/** The tables --from names: the file itself, or a directory's *.json files in natural order. */
async function tableFiles(io: CliIo, from: string): Promise<string[]> {
  if (from === "-") return [from];
  const names = await io.listFiles(from).catch(() => [] as string[]);
  const tables = names.filter((name) => name.endsWith(".json")).sort(naturalOrder);
  return tables.length ? tables.map((name) => `${from.replace(/\/+$/, "")}/${name}`) : [from];
}

/** The inventory of one table's text, worked out in a worker thread (the API's rank-table worker entry). */
function inventoryWorker(): (text: string) => Promise<{ inventory: Inventory | null; issues: Issue[] }> {
  // The bundled CLI (scripts/bundle.ts, one esbuild file) has no worker entry to start: it reads each table inline.
  if (!runsFromSource(import.meta.url)) return async (text) => inventoryFromRankTable(text);
  const pool = new WorkerPool({
    spawn: () => sourceWorker(new URL("../../../server/workers/rank-table.worker.ts", import.meta.url)),
    maxQueued: 2,
    timeoutMs: 300_000,
    // Long enough to outlast the writing of one table (a new worker compiles its modules again: seconds of CPU);
    // the worker is unref'd, so it never holds the process open.
    idleMs: 300_000,
    label: "reading the rank table",
  });
  return (text) => pool.run({ job: "inventory", text });
}

/**
 * Each table's inventory in turn. The next table is read and checked in a worker thread while the current one is
 * written, so this process and PostgreSQL work at the same time; at most two tables are alive at once.
 */
async function* inventories(io: CliIo, files: string[]): AsyncGenerator<Inventory> {
  const inventoryOf = inventoryWorker();
  const read = async (file: string) => {
    const text = await readInput(io, file);
    if (text === undefined) throw new UnreadableTable(file);
    const { inventory, issues } = await inventoryOf(text);
    if (!inventory) throw new RefusedTable(file, issues);
    return inventory;
  };
  let next: Promise<Inventory> | undefined = read(files[0]!);
  for (let i = 0; next; i++) {
    const current: Inventory = await next;
    next = i + 1 < files.length ? read(files[i + 1]!) : undefined;
    // Failures of the table read ahead surface when it is awaited; until then they are not unhandled.
    next?.catch(() => {});
    yield current;
  }
}

export const clusterCommand: Command = {
  name: "cluster",
  summary: "add a cluster to the inventory from rank table files",
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { from: { type: "string" }, name: { type: "string" } });
    if (values.help || positionals.length === 0) {
      io.stdout(help);
      return values.help ? EXIT_OK : EXIT_TROUBLE;
    }
    const [action, slug, ...extra] = positionals;
    if (action !== "add") throw new UsageError(`unknown cluster action ${JSON.stringify(action)}; the action is add`);
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    if (!slug || !clusterSlugPattern.test(slug)) throw new UsageError(`a slug of lower-case letters, digits and dashes (at most 63) is needed, not ${JSON.stringify(slug ?? "")}`);
    if (!values.from) throw new UsageError("--from FILE is required");
    const from = values.from;
    const files = await tableFiles(io, from);
    // A single table is read before the database is opened: a bad file fails fast, as it always did.
    let first: Inventory | undefined;
    if (files.length === 1) {
      const text = await readInput(io, files[0]!);
      if (text === undefined) return EXIT_TROUBLE;
      const { inventory, issues } = inventoryFromRankTable(text);
      if (!inventory) return refused(io, new RefusedTable(from, issues));
      first = inventory;
    }
    const [{ insertClusterFromParts }, { recordAudit }] = await Promise.all([import("../../../db/queries/inventory"), import("../../../db/queries/audit")]);
    return database(async ({ db, pool }) => {
      const taken = await pool.query("select 1 from clusters where slug = $1", [slug]);
      if (taken.rowCount) {
        io.stderr(`rankscope cluster: a cluster with the slug ${slug} exists already\n`);
        return EXIT_FINDINGS;
      }
      const name = values.name ?? slug;
      try {
        const { counts } = await insertClusterFromParts(db, { slug, name, description: `from ${from}` }, first ? [first] : inventories(io, files), async (tx, _id, counts) => {
          await recordAudit(tx, { actor: cliActor(), action: "cluster.create", target: { type: "cluster", id: slug }, details: { servers: counts.servers, dies: counts.devices, tables: files.length } });
        });
        io.stdout(`created cluster ${slug} (${name}): ${counts.superPods} super pods, ${counts.servers} servers, ${counts.devices} dies\n`);
        return EXIT_OK;
      } catch (error) {
        if (error instanceof RefusedTable) return refused(io, error);
        if (error instanceof UnreadableTable) return EXIT_TROUBLE;
        throw error;
      }
    });
  },
};

function refused(io: CliIo, { file, issues }: RefusedTable): number {
  const errors = issues.filter((issue) => issue.severity === "error");
  io.stderr(`rankscope cluster: ${file} cannot become an inventory: ${errors.length || "no"} error finding(s)${errors.length ? "" : " (not a rank table)"}\n`);
  for (const issue of errors.slice(0, 10)) io.stderr(`  ${issue.code} ${issue.path ?? ""} ${issue.message}\n`);
  if (errors.length > 10) io.stderr(`  … and ${errors.length - 10} more (rankscope validate ${file} lists them all)\n`);
  return EXIT_FINDINGS;
}
