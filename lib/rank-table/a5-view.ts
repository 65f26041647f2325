/**
 * A first pass over a "2.0" table (see a5-model.ts): shapes (RT002 unknown fields, RT003 a number where a string
 * belongs, RT103 a string where a number belongs, RT004 wrong shapes) and a flat view of ranks, their levels and
 * addresses for the rules that follow. Tables reach 131,072 ranks, so pointers are built only for findings.
 */
import { A5_ADDRESS_FIELDS, A5_LEVEL_FIELDS, A5_RANK_FIELDS, A5_ROOT_FIELDS } from "./a5-model";
import type { Findings } from "./findings";
import { JSON_TYPE_NAMES } from "./messages";
import { isJsonObject, type JsonObject, type JsonValue } from "./model";
import { parseWholeNumber } from "./net";
import { childPointer } from "./pointer";
import { jsonTypeName, type ViewReader } from "./table-view";

/** Shared by every view whose list is absent: no empty array per rank or level. */
const NONE: readonly never[] = Object.freeze([]);

export class A5RankView {
  rankId: number | undefined = undefined;
  /** The rank_id as written, for messages. */
  rankText: string | undefined = undefined;
  localId: number | undefined = undefined;
  deviceId: number | undefined = undefined;
  devicePort: number | undefined = undefined;
  hostPort: number | undefined = undefined;
  /** True when level_list is absent or an empty list. */
  levelListMissing = false;
  levelCount = 0;
  /** The entries of level_list that are objects (sized once: see `objectsOf`). */
  levels: readonly A5LevelView[] = NONE;

  constructor(readonly index: number) {}

  get path(): string {
    return `/rank_list/${this.index}`;
  }
}

export class A5LevelView {
  netLayer: number | undefined = undefined;
  netInstanceId: string | undefined = undefined;
  netType: string | undefined = undefined;
  addressListMissing = false;
  addressCount = 0;
  /** The entries of rank_addr_list that are objects. */
  addresses: readonly A5AddressView[] = NONE;

  constructor(
    readonly rank: A5RankView,
    readonly index: number,
  ) {}

  get path(): string {
    return `${this.rank.path}/level_list/${this.index}`;
  }
}

export class A5AddressView {
  addrType: string | undefined = undefined;
  addr: string | undefined = undefined;
  /** The ports as written; undefined when absent or not a list. */
  ports: string[] | undefined = undefined;
  planeId: string | undefined = undefined;

  constructor(
    readonly level: A5LevelView,
    readonly index: number,
  ) {}

  get path(): string {
    return `${this.level.path}/rank_addr_list/${this.index}`;
  }
}

export interface A5View {
  rankCount: number | undefined;
  /** True when rank_list is absent or an empty list. */
  rankListMissing: boolean;
  rankEntryCount: number;
  ranks: A5RankView[];
}

const ROOT_KNOWN = new Set<string>(A5_ROOT_FIELDS);
const RANK_KNOWN = new Set<string>(A5_RANK_FIELDS);
const LEVEL_KNOWN = new Set<string>(A5_LEVEL_FIELDS);
const ADDRESS_KNOWN = new Set<string>(A5_ADDRESS_FIELDS);

const isMissingList = (value: JsonValue | undefined) => value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * A field that "2.0" wants as a JSON number: the number (any number; the rules check its range), or, for a string
 * of digits, its value after an RT103; anything else is reported and read as absent.
 */
function readNumber(value: JsonValue | undefined, key: string, owner: { path: string }, reader: ViewReader, findings: Findings): number | undefined {
  if (typeof value === "number") return value;
  if (value === undefined) return undefined;
  const path = childPointer(owner.path, key);
  if (typeof value === "string") {
    findings.add("RT103", path, { field: key, value });
    return parseWholeNumber(value);
  }
  if (value === null || typeof value === "boolean") {
    findings.add("RT004", path, { field: key, expected: JSON_TYPE_NAMES.number, actual: JSON_TYPE_NAMES[jsonTypeName(value)] });
    return undefined;
  }
  reader.wrongShape(path, key, value, "number");
  return undefined;
}

export function readA5View(root: JsonObject, reader: ViewReader, findings: Findings): A5View {
  const { view, rankList } = readA5Root(root, reader, findings);
  if (rankList === undefined) return view;
  for (let index = 0; index < rankList.length; index++) {
    const rank = readA5Entry(rankList[index]!, index, reader, findings);
    if (rank !== undefined) view.ranks.push(rank);
  }
  return view;
}

/** The table's own fields, before its ranks (in the order findings are reported); `ranks` is left empty. */
export function readA5Root(root: JsonObject, reader: ViewReader, findings: Findings): { view: A5View; rankList: JsonValue[] | undefined } {
  const top = { path: "" };
  reader.unknownFields(root, ROOT_KNOWN, top);
  const rankList = reader.list(root.rank_list, "rank_list", top);
  const view: A5View = {
    rankCount: readNumber(root.rank_count, "rank_count", top, reader, findings),
    rankListMissing: isMissingList(root.rank_list),
    rankEntryCount: rankList?.length ?? 0,
    ranks: [],
  };
  return { view, rankList };
}

/** One entry of rank_list (index: its position there); undefined, after an RT004, when it is not an object. */
export function readA5Entry(entry: JsonValue, index: number, reader: ViewReader, findings: Findings): A5RankView | undefined {
  if (!isJsonObject(entry)) {
    reader.wrongShape(`/rank_list/${index}`, `rank_list/${index}`, entry, "object");
    return undefined;
  }
  return readRank(entry, new A5RankView(index), reader, findings);
}

function readRank(entry: JsonObject, rank: A5RankView, reader: ViewReader, findings: Findings): A5RankView {
  reader.unknownFields(entry, RANK_KNOWN, rank);
  const rankId = entry.rank_id;
  rank.rankId = readNumber(rankId, "rank_id", rank, reader, findings);
  if (typeof rankId === "number" || typeof rankId === "string") rank.rankText = String(rankId);
  rank.localId = readNumber(entry.local_id, "local_id", rank, reader, findings);
  rank.deviceId = readNumber(entry.device_id, "device_id", rank, reader, findings);
  if (entry.device_port !== undefined) rank.devicePort = readNumber(entry.device_port, "device_port", rank, reader, findings);
  if (entry.host_port !== undefined) rank.hostPort = readNumber(entry.host_port, "host_port", rank, reader, findings);
  rank.levelListMissing = isMissingList(entry.level_list);
  const levels = reader.list(entry.level_list, "level_list", rank);
  if (levels === undefined) return rank;
  rank.levelCount = levels.length;
  // Arrays allocated at their final size (then trimmed): one grown by push() reserves room for 17 entries.
  const views = new Array<A5LevelView>(levels.length);
  let count = 0;
  for (let index = 0; index < levels.length; index++) {
    const level = levels[index]!;
    if (isJsonObject(level)) views[count++] = readLevel(level, new A5LevelView(rank, index), reader, findings);
    else reader.wrongShape(`${rank.path}/level_list/${index}`, `level_list/${index}`, level, "object");
  }
  views.length = count;
  rank.levels = views;
  return rank;
}

function readLevel(entry: JsonObject, level: A5LevelView, reader: ViewReader, findings: Findings): A5LevelView {
  reader.unknownFields(entry, LEVEL_KNOWN, level);
  level.netLayer = readNumber(entry.net_layer, "net_layer", level, reader, findings);
  level.netInstanceId = reader.scalar(entry.net_instance_id, "net_instance_id", level);
  level.netType = reader.scalar(entry.net_type, "net_type", level);
  // net_attr is a reserved string, usually "" (A5 reference: 可选，预留字段).
  reader.scalar(entry.net_attr, "net_attr", level);
  level.addressListMissing = isMissingList(entry.rank_addr_list);
  const addresses = reader.list(entry.rank_addr_list, "rank_addr_list", level);
  if (addresses === undefined) return level;
  level.addressCount = addresses.length;
  const views = new Array<A5AddressView>(addresses.length);
  let count = 0;
  for (let index = 0; index < addresses.length; index++) {
    const address = addresses[index]!;
    if (isJsonObject(address)) views[count++] = readAddress(address, new A5AddressView(level, index), reader);
    else reader.wrongShape(`${level.path}/rank_addr_list/${index}`, `rank_addr_list/${index}`, address, "object");
  }
  views.length = count;
  level.addresses = views;
  return level;
}

function readAddress(entry: JsonObject, address: A5AddressView, reader: ViewReader): A5AddressView {
  reader.unknownFields(entry, ADDRESS_KNOWN, address);
  address.addrType = reader.scalar(entry.addr_type, "addr_type", address);
  address.addr = reader.scalar(entry.addr, "addr", address);
  address.planeId = reader.scalar(entry.plane_id, "plane_id", address);
  const ports = reader.list(entry.ports, "ports", address);
  if (ports === undefined) return address;
  let allText = true;
  for (let index = 0; index < ports.length && allText; index++) allText = typeof ports[index] === "string";
  // The usual case, a list of strings, is used as it is; otherwise each entry is reported and the texts kept.
  if (allText) address.ports = ports as string[];
  else {
    const owner = { path: `${address.path}/ports` };
    const texts: string[] = [];
    for (let index = 0; index < ports.length; index++) {
      const text = reader.scalar(ports[index], String(index), owner);
      if (text !== undefined) texts.push(text);
    }
    address.ports = texts;
  }
  return address;
}
