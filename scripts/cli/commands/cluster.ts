/** `rankscope cluster add`: a cluster of the inventory from a rank table file, against DATABASE_URL or the embedded database. */
import { clusterSlugPattern } from "../../../db/schema/cluster/constants";
import { inventoryFromRankTable } from "../../../lib/topology/import";
import { EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import { cliActor, database } from "./accounts";

const help = `Usage: rankscope cluster add SLUG --from FILE [--name NAME]

Creates a cluster of the inventory (super pods, servers, NPUs, dies and their links) from a rank table file, in the
configured database (DATABASE_URL, or the embedded one in .data/postgres when the console is not running). A table
with errors is refused with its findings; nothing is written. "-" reads standard input. The change goes to the
audit log. To replace an existing cluster's inventory, use the topology page's "Inventory from a rank table".

Options:
  --from FILE    the rank table (JSON, as HCCL reads it)
  --name NAME    display name (default: the slug)
  -h, --help     show this help

Exit status: 0 created, 1 the table has errors or the slug is taken, 2 wrong arguments or an unreadable file.

Examples:
  rankscope generate --super-pods 32 --servers 32 --version 1.2 > large.json
  rankscope cluster add atlas-a3-large --from large.json --name "Atlas A3, 16,384 dies"
`;

export const clusterCommand: Command = {
  name: "cluster",
  summary: "add a cluster to the inventory from a rank table file",
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
    const text = await readInput(io, values.from);
    if (text === undefined) return EXIT_TROUBLE;
    const { inventory, issues } = inventoryFromRankTable(text);
    if (!inventory) {
      const errors = issues.filter((issue) => issue.severity === "error");
      io.stderr(`rankscope cluster: ${values.from} cannot become an inventory: ${errors.length || "no"} error finding(s)${errors.length ? "" : " (not a rank table)"}\n`);
      for (const issue of errors.slice(0, 10)) io.stderr(`  ${issue.code} ${issue.path ?? ""} ${issue.message}\n`);
      if (errors.length > 10) io.stderr(`  … and ${errors.length - 10} more (rankscope validate ${values.from} lists them all)\n`);
      return EXIT_FINDINGS;
    }
    const [{ insertCluster }, { recordAudit }] = await Promise.all([import("../../../db/queries/inventory"), import("../../../db/queries/audit")]);
    return database(async ({ db, pool }) => {
      const taken = await pool.query("select 1 from clusters where slug = $1", [slug]);
      if (taken.rowCount) {
        io.stderr(`rankscope cluster: a cluster with the slug ${slug} exists already\n`);
        return EXIT_FINDINGS;
      }
      const dies = inventory.servers.reduce((sum, server) => sum + server.npus.reduce((n, npu) => n + npu.dies.length, 0), 0);
      const name = values.name ?? slug;
      await db.transaction(async (tx) => {
        await insertCluster(tx, { slug, name, description: `from ${values.from}`, ...inventory });
        await recordAudit(tx, { actor: cliActor(), action: "cluster.create", target: { type: "cluster", id: slug }, details: { servers: inventory.servers.length, dies } });
      });
      io.stdout(`created cluster ${slug} (${name}): ${inventory.superPodIds.length} super pods, ${inventory.servers.length} servers, ${dies} dies\n`);
      return EXIT_OK;
    });
  },
};
