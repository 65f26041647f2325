/**
 * Who is speaking in an HCCL log: the rank, device and host a line or a file's path names, from the same public
 * threads and CANN HCCL guide as ./patterns.ts (which reads what the line says). Each pattern cites where its shape
 * was seen.
 */

export interface Identity {
  rank?: number;
  rankSize?: number;
  deviceId?: number;
  deviceIp?: string;
  hostIp?: string;
  serverId?: string;
  /** The speaker called HcclGetRootInfo: it is the root rank. */
  root?: boolean;
  /** How sure the rank is: 5 the communicator's own entry line … 1 a sub-group's rank, 0 a path. */
  weight?: number;
}

/** A whole number as the logs print it, or nothing. */
export function int(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/** torch_npu screen error: `[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 …`
 *  (vllm-ascend#486 https://github.com/vllm-project/vllm-ascend/issues/486). */
const TORCH_NPU_ERROR = /\(PID:\s*\d+, Device:\s*(-?\d+), RankID:\s*(-?\d+)\)/;
/** `Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], rootinfo: host ip[127.10.0.1] port[60000] … deviceLogicId[3]`
 *  (hicann/hccl docs/zh/user_guide/fault_diagnosis/notify_wait_timeout_EI0002.md). */
const ENTRY_INIT = /Entry-HcclCommInit\w*:\s*ranks\[(\d+)\], rank\[(\d+)\](?:.*?deviceLogicId\[(\d+)\])?/;
/** `Entry-HcclGetRootInfo:rootInfo[…], deviceLogicId[0]`: the root rank (hicann/hccl cluster_info_nego.md). */
const ENTRY_ROOT = /Entry-HcclGetRootInfo\b(?:.*?deviceLogicId\[(\d+)\])?/;
/** `| comm error, device[3]` in LINK_ERROR_INFO (hcomm hccl_socket_manager.cc PrintErrorConnection). */
const COMM_ERROR_DEVICE = /comm error, device\[(\d+)\]/;
/** `localRank[0]`, `userRank[5]`, `deviceLogicId[2]` as HCCL prints them in INFO lines (hicann/hccl
 *  notify_wait_timeout_EI0002.md: `Entry-HcclAllReduce: … localRank[0], streamId[7], … deviceLogicId[0]`). */
const USER_RANK = /\buserRank\[(\d+)\]/;
const DEVICE_LOGIC_ID = /\bdeviceLogicId\[(\d+)\]/;
/** The runtime's `The error from device(chipId:3, dieId:0), … hccl fftsplus task timeout …` (Ascend/pytorch#54). */
const CHIP_ID = /error from device\(chipId:(\d+), dieId:\d+\)/;

/** What one line says about its speaker, if anything. */
export function identityOf(line: string): Identity | undefined {
  // Literal guards first: most lines hold none of these, and a substring test is far cheaper than a regex scan.
  let match = line.includes("Entry-HcclCommInit") ? ENTRY_INIT.exec(line) : null;
  if (match) return { rankSize: int(match[1]), rank: int(match[2]), deviceId: int(match[3]), weight: 5 };
  match = line.includes("Entry-HcclGetRootInfo") ? ENTRY_ROOT.exec(line) : null;
  if (match) return { root: true, deviceId: int(match[1]) };
  match = line.includes("RankID:") ? TORCH_NPU_ERROR.exec(line) : null;
  if (match) return { deviceId: int(match[1]), rank: int(match[2]), weight: 4 };
  match = line.includes("comm error") ? COMM_ERROR_DEVICE.exec(line) : null;
  if (match) return { deviceId: int(match[1]) };
  match = line.includes("userRank[") ? USER_RANK.exec(line) : null;
  if (match) return { rank: int(match[1]), deviceId: int(DEVICE_LOGIC_ID.exec(line)?.[1]), weight: 2 };
  match = line.includes("deviceLogicId[") ? DEVICE_LOGIC_ID.exec(line) : null;
  if (match) return { deviceId: int(match[1]) };
  match = line.includes("chipId:") ? CHIP_ID.exec(line) : null;
  if (match) return { deviceId: int(match[1]) };
  return undefined;
}

/** What a file's path says about its speaker: `…/rank_3/…`, `…/device-5/…`, a node directory (first directory when
 *  the path has several), a host IP in a directory name, msrun's `worker_<rank>.log`. plog names (`plog-<pid>_<time>.log`) carry only the pid. */
export function identityFromPath(path: string): Identity {
  const identity: Identity = {};
  const parts = path.split(/[\\/]/).filter((part) => part !== "" && part !== ".");
  const rank = /(?:^|[^a-z])rank[_-]?(\d+)(?!\d)/i.exec(path);
  if (rank) identity.rank = Number(rank[1]);
  const device = /(?:^|[^a-z])(?:device|dev|npu)[_-]?(\d+)(?!\d)/i.exec(path);
  if (device) identity.deviceId = Number(device[1]);
  const ip = /(?:^|[^\d.])((?:\d{1,3}\.){3}\d{1,3})(?![\d.]*\d)/.exec(parts.slice(0, -1).join("/"));
  if (ip) identity.hostIp = ip[1];
  // msrun writes each worker's stdout to `worker_<rank>.log` (MindSpore Transformers logging docs,
  // https://www.mindspore.cn/mindformers/docs/zh-CN/r2.1.0/feature/logging.html).
  const msrun = /^worker_(\d+)\.log$/.exec(parts[parts.length - 1] ?? "");
  if (msrun && identity.rank === undefined) identity.rank = Number(msrun[1]);
  const node = parts.slice(0, -1).find((part) => /^(?:node|worker|host|server|master)[-_]?\w*$/i.test(part));
  if (node) identity.serverId = node;
  return identity;
}
