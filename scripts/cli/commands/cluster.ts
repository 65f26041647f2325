/** `rankscope cluster add|remove`: a cluster of the inventory from rank table files, or deleted, against DATABASE_URL or the embedded database. */
import { clusterSlugPattern } from "../../../db/schema/cluster/constants";
import type { Issue } from "../../../lib/rank-table";
import type { Transaction } from "../../../db/queries/inventory";
import type { EncodedInventoryRows, EncoderState } from "../../../db/queries/inventory-rows";
import type { WrittenCounts } from "../../../db/queries/inventory-writer";
import type { ClusterLosses } from "../../../db/queries/cluster-delete";
import type { Inventory } from "../../../lib/topology/import";
import { inventoryPartsFromRankTable } from "../../../lib/topology/import-stream";
import { EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import { runsFromSource, sourceWorker, WorkerPool, workerResourceLimits } from "../../../server/workers/worker-pool";
import type { CliIo } from "../io";
import { cliActor, database } from "./accounts";

const help = `Usage: rankscope cluster add SLUG --from FILE|DIR [--name NAME]
       rankscope cluster remove SLUG [--yes]

Creates a cluster of the inventory (super pods, servers, NPUs, dies and their links) from a rank table file, or
from every *.json table of a directory in natural name order (a SuperCluster, one "2.0" table per SuperPoD, as
"rankscope generate --version 2.0 --super-pods N --output DIR" writes it), in the configured database
(DATABASE_URL, or the embedded one in .data/postgres when the console is not running). The tables of a directory
are read, checked and written one at a time, in one transaction. A table with errors is refused with its findings;
nothing is written. "-" reads standard input. The change goes to the audit log. To replace an existing cluster's
inventory, use the topology page's "Inventory from a rank table".

"remove" deletes a cluster with its inventory, jobs and fault events in one transaction (its saved rank tables
stay, tied to no cluster); without --yes it only says what would be lost. The deletion goes to the audit log.

Options:
  --from FILE    the rank table (JSON, as HCCL reads it), or a directory of them
  --name NAME    display name (default: the slug)
  --yes          remove: delete without asking again
  -h, --help     show this help

Exit status: 0 created or removed, 1 a table has errors, the slug is taken (add) or unknown (remove), or remove
without --yes, 2 wrong arguments or an unreadable file.

Examples:
  rankscope generate --super-pods 32 --servers 32 --version 1.2 > large.json
  rankscope cluster add atlas-a3-large --from large.json --name "Atlas A3, 16,384 dies"
  rankscope generate --version 2.0 --super-pods 64 --racks 128 --output sc/
  rankscope cluster add atlas-950-sc --from sc/ --name "Atlas 950 SuperCluster, 524,288 NPUs"
  rankscope cluster remove atlas-950-sc --yes
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

type TableRows = (text: string, state: EncoderState) => Promise<{ rows: EncodedInventoryRows | null; issues: Issue[] }>;

/**
 * The rows of one table's inventory (db/queries/inventory-rows.ts), worked out in a worker thread (the API's
 * rank-table worker entry): parse, checks and the COPY text of its rows all happen there, and only strings come back.
 */
async function rowsWorker(): Promise<TableRows> {
  // The bundled CLI (scripts/bundle.ts, one esbuild file) has no worker entry to start: it reads each table inline.
  if (!runsFromSource(import.meta.url)) {
    const { inventoryRowsFromRankTable } = await import("../../../db/queries/inventory-rows");
    return async (text, state) => inventoryRowsFromRankTable(text, state);
  }
  const pool = new WorkerPool({
    // A young generation four times the server's: parsing a SuperPoD's table (13.5 MB) makes millions of
    // short-lived objects, and with 32 MB scavenges took 45 % of the worker's time at 131,072 NPUs.
    spawn: () => sourceWorker(new URL("../../../server/workers/rank-table.worker.ts", import.meta.url), { ...workerResourceLimits, maxYoungGenerationSizeMb: 128 }),
    maxQueued: 2,
    timeoutMs: 300_000,
    // Long enough to outlast the writing of one table (a new worker compiles its modules again: seconds of CPU);
    // the worker is unref'd, so it never holds the process open.
    idleMs: 300_000,
    label: "reading the rank table",
  });
  // The text goes as UTF-8 bytes, transferred (cloning a 13.5 MB string cost the main thread more than encoding it).
  return (text, state) => {
    const bytes = Buffer.from(text, "utf8");
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes);
    return pool.run({ job: "inventory-rows", bytes: owned, state }, [owned.buffer as ArrayBuffer]);
  };
}

/**
 * Each table's rows in turn. The next table is read, checked and turned into rows in a worker thread while the
 * current one is written, so this process and PostgreSQL work at the same time; at most two tables are alive at
 * once. Each table is numbered on from the state the one before left (its ids are known before it is written).
 */
async function* tableRows(io: CliIo, files: string[], start: EncoderState): AsyncGenerator<EncodedInventoryRows> {
  const rowsOf = await rowsWorker();
  const read = async (file: string, state: EncoderState) => {
    const text = await readInput(io, file);
    if (text === undefined) throw new UnreadableTable(file);
    const { rows, issues } = await rowsOf(text, state);
    if (!rows) throw new RefusedTable(file, issues);
    return rows;
  };
  let next: Promise<EncodedInventoryRows> | undefined = read(files[0]!, start);
  for (let i = 0; next; i++) {
    const current: EncodedInventoryRows = await next;
    next = i + 1 < files.length ? read(files[i + 1]!, current.state) : undefined;
    // Failures of the table read ahead surface when it is awaited; until then they are not unhandled.
    next?.catch(() => {});
    yield current;
  }
}

export const clusterCommand: Command = {
  name: "cluster",
  summary: "add a cluster to the inventory from rank table files, or remove one",
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { from: { type: "string" }, name: { type: "string" }, yes: { type: "boolean" } });
    if (values.help || positionals.length === 0) {
      io.stdout(help);
      return values.help ? EXIT_OK : EXIT_TROUBLE;
    }
    const [action, slug, ...extra] = positionals;
    if (action !== "add" && action !== "remove") throw new UsageError(`unknown cluster action ${JSON.stringify(action)}; the actions are add and remove`);
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    if (!slug || !clusterSlugPattern.test(slug)) throw new UsageError(`a slug of lower-case letters, digits and dashes (at most 63) is needed, not ${JSON.stringify(slug ?? "")}`);
    if (action === "remove") return removeCluster(io, slug, values.yes === true);
    if (!values.from) throw new UsageError("--from FILE is required");
    const from = values.from;
    const files = await tableFiles(io, from);
    // A single table is read before the database is opened: a bad file fails fast, as it always did.
    // Its inventory comes in parts (lib/topology/import-stream.ts): a 1.x table's servers a batch at a time.
    let single: Iterable<Inventory> | undefined;
    if (files.length === 1) {
      const text = await readInput(io, files[0]!);
      if (text === undefined) return EXIT_TROUBLE;
      const { parts, issues } = inventoryPartsFromRankTable(text);
      if (!parts) return refused(io, new RefusedTable(from, issues));
      single = parts;
    }
    const [{ insertClusterFromParts, insertClusterFromRows }, { recordAudit }] = await Promise.all([import("../../../db/queries/inventory"), import("../../../db/queries/audit")]);
    return database(async ({ db, pool }) => {
      const taken = await pool.query("select 1 from clusters where slug = $1", [slug]);
      if (taken.rowCount) {
        io.stderr(`rankscope cluster: a cluster with the slug ${slug} exists already\n`);
        return EXIT_FINDINGS;
      }
      const name = values.name ?? slug;
      try {
        const header = { slug, name, description: `from ${from}` };
        const audit = async (tx: Transaction, _id: number, counts: WrittenCounts) => {
          await recordAudit(tx, { actor: cliActor(), action: "cluster.create", target: { type: "cluster", id: slug }, details: { servers: counts.servers, dies: counts.devices, tables: files.length } });
        };
        const { counts } = single
          ? await insertClusterFromParts(db, header, single, audit)
          : await insertClusterFromRows(db, header, (start) => tableRows(io, files, start), audit);
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

/** What deleting the cluster takes with it, in words. */
function lossesText({ slug, superPods, servers, dies, jobs, faultEvents, rankTablesDetached }: ClusterLosses): string {
  const n = (count: number) => count.toLocaleString("en");
  return `cluster ${slug} with super pods ${n(superPods)}, servers ${n(servers)}, dies ${n(dies)}, jobs ${n(jobs)}, fault events ${n(faultEvents)} (saved rank tables kept without a cluster: ${n(rankTablesDetached)})`;
}

async function removeCluster(io: CliIo, slug: string, confirmed: boolean): Promise<number> {
  const { clusterLosses, deleteCluster } = await import("../../../db/queries/cluster-delete");
  return database(async ({ db }) => {
    const losses = confirmed ? await deleteCluster(db, slug, cliActor()) : await clusterLosses(db, slug);
    if (!losses) {
      io.stderr(`rankscope cluster: there is no cluster ${slug}\n`);
      return EXIT_FINDINGS;
    }
    if (!confirmed) {
      io.stderr(`rankscope cluster: removing would delete ${lossesText(losses)}. Run again with --yes to delete it.\n`);
      return EXIT_FINDINGS;
    }
    io.stdout(`removed ${lossesText(losses)}\n`);
    return EXIT_OK;
  });
}

function refused(io: CliIo, { file, issues }: RefusedTable): number {
  const errors = issues.filter((issue) => issue.severity === "error");
  io.stderr(`rankscope cluster: ${file} cannot become an inventory: ${errors.length || "no"} error finding(s)${errors.length ? "" : " (not a rank table)"}\n`);
  for (const issue of errors.slice(0, 10)) io.stderr(`  ${issue.code} ${issue.path ?? ""} ${issue.message}\n`);
  if (errors.length > 10) io.stderr(`  … and ${errors.length - 10} more (rankscope validate ${file} lists them all)\n`);
  return EXIT_FINDINGS;
}
