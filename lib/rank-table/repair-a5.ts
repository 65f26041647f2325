/**
 * Repairs of "2.0" tables (a5-model.ts), each safe in that it only rewrites what the table already says in the form
 * HCCL's A5 reference asks for, and each removing the findings it is for:
 * - a5Numbers: RT103 (a whole number written as a string where "2.0" wants a JSON number: rank_count, rank_id,
 *   local_id, device_id, device_port, host_port, net_layer);
 * - a5RankCount: RT100 (rank_count missing) and RT101 (rank_count not the number of rank_list entries);
 * - a5RenumberRanks: RT104–RT107 (rank_id 0…N−1 in rank_list order: A5 reference "从0开始配置，且全局唯一").
 * Addresses, levels and planes are never guessed: their findings are left to the person who knows the hardware.
 */
import { A5_NUMBER_FIELDS, A5_VERSION } from "./a5-model";
import { isJsonObject, type JsonObject, type JsonValue, type RankTableInput } from "./model";
import { cloneJson, type Change, type RepairResult } from "./repair";

function repairA5(table: RankTableInput, apply: (root: JsonObject, set: (object: JsonObject, path: string, key: string, value: number) => void) => void): RepairResult {
  const copy = cloneJson(table as JsonValue);
  const changes: Change[] = [];
  const set = (object: JsonObject, path: string, key: string, value: number) => {
    const before = Object.hasOwn(object, key) ? object[key] : undefined;
    if (before === value) return;
    object[key] = value;
    changes.push({ path: `${path}/${key}`, before, after: value });
  };
  if (isJsonObject(copy)) apply(copy, set);
  return { table: copy, changes };
}

const ranksOf = (root: JsonObject): { rank: JsonObject; path: string }[] =>
  (Array.isArray(root.rank_list) ? root.rank_list : []).flatMap((rank, index) => (isJsonObject(rank) ? [{ rank, path: `/rank_list/${index}` }] : []));

/** RT103: every number field written as a string of digits becomes that number. */
export function a5Numbers(table: RankTableInput): RepairResult {
  return repairA5(table, (root, set) => {
    const fix = (object: JsonObject, path: string) => {
      for (const key of Object.keys(object)) {
        const value = object[key];
        if (A5_NUMBER_FIELDS.has(key) && typeof value === "string" && /^\d{1,9}$/.test(value)) set(object, path, key, Number(value));
      }
    };
    fix(root, "");
    for (const { rank, path } of ranksOf(root)) {
      fix(rank, path);
      (Array.isArray(rank.level_list) ? rank.level_list : []).forEach((level, index) => isJsonObject(level) && fix(level, `${path}/level_list/${index}`));
    }
  });
}

/** RT100/RT101: rank_count is the number of rank_list entries. */
export function a5RankCount(table: RankTableInput): RepairResult {
  return repairA5(table, (root, set) => {
    if (Array.isArray(root.rank_list) && root.rank_list.length > 0) set(root, "", "rank_count", root.rank_list.length);
  });
}

/** RT104–RT107: rank_id 0…N−1 in the order of rank_list. */
export function a5RenumberRanks(table: RankTableInput): RepairResult {
  return repairA5(table, (root, set) => ranksOf(root).forEach(({ rank, path }, index) => set(rank, path, "rank_id", index)));
}

/** A table the "2.0" repairs are for (and the 1.x ones, which address server_list, are not). */
export const isA5Table = (table: RankTableInput): boolean => isJsonObject(table as JsonValue) && (table as JsonObject).version === A5_VERSION;

export type A5RepairKey = "numbers" | "rank-count" | "renumber";

/**
 * The "2.0" repairs as the editor's menu and `rankscope fix` offer them, in the order they are applied together:
 * numbers first, so that the others read numbers.
 */
export const A5_REPAIRS: readonly { key: A5RepairKey; run: (table: RankTableInput) => RepairResult }[] = [
  { key: "numbers", run: a5Numbers },
  { key: "rank-count", run: a5RankCount },
  { key: "renumber", run: a5RenumberRanks },
];
