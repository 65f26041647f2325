/**
 * The log lines HCCL localisation understands, learnt from logs users pasted in public threads and from the CANN HCCL
 * fault-diagnosis guide (hicann/hccl docs/zh/user_guide/fault_diagnosis/*.md). Each pattern cites where its shape was
 * seen. `readLine` turns one line into what it says about the speaker (identity) and at most one finding; lines that
 * say nothing we know are reported as unknown, never as an error.
 */
import { identityOf, int, type Identity } from "./identity";

/** Where in the life of a communicator a finding belongs (the seed's phases, plus config and port conflicts). */
export type FindingKind =
  | "config" // rank table / environment / cluster-check errors
  | "port_in_use" // a listen/bind failure
  | "root_timeout" // the root rank waited for agents (root's view)
  | "root_connected" // the root's list of ranks that did connect
  | "agents_missing" // "Failed to connect agent[…]": ranks that never reached the root
  | "agent_timeout" // this rank could not reach the root over the host NIC
  | "init_failed" // communicator initialisation failed (no detail)
  | "link_timeout" // rank-to-rank socket set-up timed out (EI0006)
  | "consistency" // operator parameters differ between ranks (EI0005)
  | "notify_timeout" // notify wait / task timeout during execution (EI0002)
  | "error_cqe" // RDMA retransmissions exhausted (EI0013, "error cqe")
  | "other_error"; // another error code: a first error, not a timeout

export interface Finding {
  kind: FindingKind;
  code?: string;
  remoteRank?: number;
  remoteIp?: string;
  localIp?: string;
  remoteServer?: string;
  localServer?: string;
  remoteDeviceId?: number;
  localDeviceId?: number;
  port?: number;
  /** Ranks listed by the root (connected) or by an agent (missing). */
  ranks?: number[];
  tls?: string;
  /** Operator tag (e.g. AllReduce_group…), to compare what ranks were running. */
  tag?: string;
}

export interface LineReading {
  /** The line has a shape we know (plog prefix, screen error, framework prefix…). */
  known: boolean;
  /** The line is at ERROR level or carries an error code. */
  error: boolean;
  /** Identity of the file's process, said by this line. */
  identity?: Identity;
  /** Rank of this line only (a multi-rank paste: `[rank3]:`, `(VllmWorker rank=0 …)`). */
  speakerRank?: number;
  finding?: Finding;
}

// --- line shapes -------------------------------------------------------------------------------------------------

/** plog / device log prefix: `[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [file.cc:100] …`
 *  (vllm-ascend#1955 https://github.com/vllm-project/vllm-ascend/issues/1955; also ROCE/HCCP/RUNTIME modules in
 *  hicann/hccl error_cqe_report_EI0013.md). The pid may be followed by an empty process name: `HCCL(55694,)`
 *  (vllm-ascend#9872 https://github.com/vllm-project/vllm-ascend/issues/9872). */
const PLOG_PREFIX = /^\[(ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] [A-Z_0-9]+\(\d+,/;
/** torchrun's per-rank prefix `[rank1]: …` / `[rank11]:[E313 …]` (vllm-ascend#486, vllm-ascend#7384). */
const TORCHRUN_RANK = /^\[rank(\d+)\]:/;
/** vLLM worker prefix `(VllmWorker rank=0 pid=234357) …` (vllm-ascend#3196
 *  https://github.com/vllm-project/vllm-ascend/issues/3196). */
const VLLM_WORKER = /^\((?:VllmWorker|Worker)[^)]*?\brank=(\d+)/;
/** deepspeed/pdsh host prefix `worker-1: EH9999: …` (Ascend/pytorch#43 https://github.com/Ascend/pytorch/issues/43). */
const HOST_PREFIX = /^(?:(?:worker|node|host)[-_]?\d+|\d{1,3}(?:\.\d{1,3}){3}): /;
/** Error code at the start of a screen message (`EI0006: [PID: …] …`, LlamaFactory#5071
 *  https://github.com/hiyouga/LlamaFactory/issues/5071) or in parentheses (`Communication_Error_Get_Socket(EI0006)`,
 *  afd-plugin#229 https://github.com/vllm-project/afd-plugin/issues/229). */
const ERROR_CODE = /\b(E[IJE]\d{4}|EI9999)\b/;
const OTHER_KNOWN = /^\s*(?:Traceback|File "|RuntimeError|Solution:|Possible Cause:|TraceBack|\[W\d|\[E\d|INFO|WARNING|ERROR|\d{4}-\d\d-\d\d)/;

/** An IPv4 or IPv6 address (never swallowing a sentence's final dot). */
const IP = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:]+)`;

/** `Task run failed, groupRank information is group:[…], user define information[], rankSize[4], rankId[0].`
 *  (hicann/hccl notify_wait_timeout_EI0002.md) and EI0002's `group information: [group:[…], …, rankSize[32],
 *  rankId[25 24]]` (vllm-ascend#3413 https://github.com/vllm-project/vllm-ascend/issues/3413). */
const GROUP_RANK = /rankSize\[(\d+)\], rankId\[(\d+)/;
// --- findings ----------------------------------------------------------------------------------------------------

/** Port in use: `socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail. Please check the port
 *  status…` (vllm-ascend#1955; type[2] = host side, type[0/1] = device side per hicann/hccl
 *  server_node_port_bind_fail_EI0019.md). */
const LISTEN_FAIL = /socket type\[(\d+)\], listen on ip\[([^\]%]+)(?:%[^\]]*)?\] and specific port\[(\d+)\] fail/;
/** `Communication_Error_Bind_IP_Port(EI0019): … The IP address 192.168.1.100 and port 50001 have already been bound.`
 *  (hicann/hccl server_node_port_bind_fail_EI0019.md); EI0020 is the NPU side, EJ0003 "Failed to bind the IP port"
 *  (hcomm error_code.cc, shared/spec/ascend-facts.md §6). */
const BIND_CODE = /\b(EI0019|EI0020|EJ0003)\b/;
/** `EJ0001: … Failed to initialize the HCCP process. Reason: Maybe the last training process is running.`: the NPU's
 *  network process is still held by a previous job (LlamaFactory#3839 https://github.com/hiyouga/LlamaFactory/issues/3839). */
const HCCP_BUSY = /\bEJ0001\b|Failed to initialize the HCCP process/;
const BOUND_ADDRESS = new RegExp(String.raw`IP address (${IP}) and port (\d+) have already been bound`);

/** Root's view: `topo exchange server get socket timeout! timeout[120 s]` and `connected rankinfo[LINE 0]:
 *  [0000000000000000],[0000000000000002],…` (hicann/hccl cluster_info_nego_troubleshooting.md). */
const ROOT_TIMEOUT = /topo exchange server get socket timeout/;
const ROOT_CONNECTED = /connected rankinfo\[LINE \d+\]:\s*(.*)$/;
/** Agent's view of the missing: `TopoDetect ERROR occur !!! fault_type[1], fault_info["Failed to connect
 *  agent[1,3,5,7,]"]` (same doc; ranges like `agent[16-23]` in its 24-card example). */
const AGENTS_MISSING = /Failed to connect agent\[([^\]]*)\]/;
/** This rank could not reach the root: `topo exchange agent get socket timeout! timeout[120]` and
 *  `TopoExchangeAgent: connect server[127.10.0.1 : 60000] failed` (same doc). */
const AGENT_TIMEOUT = /topo exchange agent get socket timeout/;
const AGENT_CONNECT = new RegExp(String.raw`connect server\[\s*(${IP})\s*:\s*(\d+)\s*\] failed`);
/** `[Init][CommRootInfoConfig]errNo[0x0000000005000002]HcclCommInitRootInfo failed.` (gpustack#2021
 *  https://github.com/gpustack/gpustack/issues/2021); EI0015 = root-info cluster detection failed (hcomm
 *  error_code.cc). */
const INIT_FAILED = /HcclCommInitRootInfo\w* failed|\bEI0015\b|\[RanktableDetect\]/;

/** Link set-up timeout: `[Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]`
 *  (vllm-ascend#1955), `EI0006: … Getting socket times out. Reason: Remote Rank did not send the data in time`
 *  (vllm-ascend#486, LlamaFactory#5071), `[InitChannelStage][Timeout]Transport init error! createLink
 *  para:rank[1]-localUserrank[1]-localIpAddr[…], remoteRank[0]-remoteUserrank[0]-remoteIpAddr[…]` (hicann/hccl
 *  link_timeout_EI0006.md; the `[RunFailed]` variant and `[Wait][LinksEstablishCompleted] is failed` in vllm-ascend#10591
 *  and #9872 https://github.com/vllm-project/vllm-ascend/issues/9872). */
const LINK_TIMEOUT = /wait socket establish timeout|\[LinksEstablishCompleted\] is failed|Getting socket times out|Communication_Error_Get_Socket|\bEI0006\b|\[InitChannelStage\]\[Timeout\]/;
const TRANSPORT_INIT = /localUserrank\[(\d+)\]-localIpAddr\[([^\]/]+)(?:\/(\d+))?\], remoteRank\[\d+\]-remoteUserrank\[(\d+)\]-remoteIpAddr\[([^\]/]+)(?:\/(\d+))?\]/;
/** A LINK_ERROR_INFO row: `| 192.0.2.199(0) | 16666 | 192.0.3.198(1) | 3234403008 | client | time out | DISABLE |`
 *  (dest = the peer, src = this rank; TlsStatus from CANN 8.x; hicann/hccl link_timeout_EI0006.md). */
const LINK_ROW = new RegExp(String.raw`\|\s*(${IP})\((\d+)\)\s*\|\s*(\d+)\s*\|\s*(${IP})\((\d+)\)\s*\|\s*\d+\s*\|\s*(client|server)\s*\|\s*([^|]+?)\s*\|(?:\s*([A-Z]+)\s*\|)?`);

/** Parameter conflict: `[InitChannelStage][ParameterConflict]CMD information tag check fail` and EI0005 (hicann/hccl
 *  param_link_stage_troubleshooting.md); HCCL's own connect-timeout detection concluding `No abnormal periods were
 *  discovered. please prioritize investigating the consistency of cluster script behaviors.` (vllm-ascend#10591
 *  https://github.com/vllm-project/vllm-ascend/issues/10591). */
const CONSISTENCY = /\[ParameterConflict\]|\bEI0005\b|prioritize investigating the consistency of cluster script behaviors/;

/** Notify wait timeout: `EI0002: … The wait execution of the Notify register times out. Reason: The Notify register has
 *  not received the Notify record from remote rank: [24]. base information: [… tag[AllReduce_…] …]` (vllm-ascend#3413;
 *  `remote rank: [unknown]` in vllm-ascend#1443 https://github.com/vllm-project/vllm-ascend/issues/1443); the host's
 *  `[TaskExecStage][Timeout][Host]Task run failed, base information is …` (hicann/hccl
 *  notify_wait_timeout_EI0002.md); the device's `hccl fftsplus task timeout occurred during task execution`
 *  (Ascend/pytorch#54 https://github.com/Ascend/pytorch/issues/54, lmdeploy#3354
 *  https://github.com/InternLM/lmdeploy/issues/3354); torch_npu's watchdog `Watchdog caught collective operation
 *  timeout: WorkHCCL(…)` (vllm-ascend#382 https://github.com/vllm-project/vllm-ascend/issues/382); the runtime's
 *  `rtDeviceSynchronize execute failed, reason=[task timeout]` (EH9999, Ascend/pytorch#43
 *  https://github.com/Ascend/pytorch/issues/43) and `EE1002: … Stream synchronize timeout` (Ascend/pytorch#48
 *  https://github.com/Ascend/pytorch/issues/48). */
const NOTIFY_TIMEOUT = /Notify register times out|\bEI0002\b|\[TaskExecStage\]\[Timeout\]|hccl fftsplus task timeout|Watchdog caught collective operation timeout: WorkHCCL|Notify Wait.*time ?out|reason=\[task timeout\]|Stream synchronize timeout/i;
const REMOTE_RANK = /remote rank:?\s*\[(\d+)\]/;
const TAG = /\btag\[([^\]]+)\]/;

/** Error CQE, EI0013: `Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local
 *  information: server xx.xx.xx.199, device ID 3, device IP 10.20.13.9. Peer information: server xx.xx.xx.195, device
 *  ID 3, device IP 10.20.13.5.` (vllm-ascend#7384 https://github.com/vllm-project/vllm-ascend/issues/7384); the
 *  heartbeat's `[ROCE CQE ERROR]cqe error status[12], …, localInfo{server[…],deviceId[…],deviceIp[…]},
 *  remoteIP{server[…],deviceId[…],deviceIp[…]}` and the driver's `hns_roce_lite_handle_error_cqe(630) : error cqe
 *  status: 0x15` / `ra_hdc_lite_period_poll_cqe : … failed CQE status[12]` (hicann/hccl error_cqe_report_EI0013.md). */
const CQE_SCREEN = new RegExp(String.raw`Local information: server ([^,]+), device ID (\d+), device IP (${IP})\. Peer information: server ([^,]+), device ID (\d+), device IP (${IP})`);
const CQE_HEARTBEAT = /localInfo\{server\[([^\]]*)\],deviceId\[([^\]]*)\],deviceIp\[([^\]]*)\]\}, remoteIP\{server\[([^\]]*)\],deviceId\[([^\]]*)\],deviceIp\[([^\]]*)\]\}/;
const CQE_ANY = /error cqe|ROCE CQE ERROR|\bEI0013\b|Error ROCE CQE|failed CQE status/i;

/** Config: EI0004 rank table parse, EI0014/EI0017 bad or missing rank-table values, EI0001/EI0016 bad config values
 *  (hcomm error_code.cc, shared/spec/ascend-facts.md §6); `[InitGroupStage][RanktableCheck]` / `[RanktableConfig]`
 *  lines, `path … is not a valid real path`, `device ip family[2] is not same as others[10]`, `devices have same
 *  superDeviceId`, HCCP's `the IP address(…) in the ranktable is inconsistent with the IP address(…) of the network
 *  adapter` (hicann/hccl rank_table_field_config_error_EI0004.md, super_device_id_duplicate_EI0014.md,
 *  tls_info_config_inconsistent_EI0016.md). */
const CONFIG_CODE = /\b(EI0001|EI0004|EI0014|EI0016|EI0017)\b/;
/** The runtime refusing a device the process asked for: `Set visible device failed, invalid device=1, input visible
 *  devices:1` (Ray workers' screen, vllm-ascend#167 https://github.com/vllm-project/vllm-ascend/issues/167; plog
 *  `[ERROR] RUNTIME(42,…) … SetDevice:Set visible device failed, invalid device=0, input visible devices:4`,
 *  gpustack#3352 https://github.com/gpustack/gpustack/issues/3352). The cause is the device mask: ASCEND_RT_VISIBLE_DEVICES
 *  (or the scheduler's) does not hold the device the worker uses (vllm-ascend#10227
 *  https://github.com/vllm-project/vllm-ascend/pull/10227: ids missing from the host are dropped silently). */
const VISIBLE_DEVICE = /Set visible device failed, invalid device=\d+, input visible devices:/;
const CONFIG_TEXT = /\[RanktableCheck\]|\[RanktableConfig\]|\[EnvConfig\]|is not a valid real path|ip family\[\d+\] is not same|have same superDeviceId|in the ranktable is inconsistent with the IP address/;

/** Codes that are consequences (timeouts) or handled above; any other code is a rank's own first error, e.g.
 *  EJ0001 "Failed to initialize the HCCP process" (LlamaFactory#3839 https://github.com/hiyouga/LlamaFactory/issues/3839),
 *  EI0011 out of NPU memory for QPs. */
const CONSEQUENCE_CODES = new Set(["EI0002", "EI0006", "EI0015", "EI0013", "EI9999", "EH9999", "EE1002"]);
const CRASH = /Segmentation fault|core dumped|Out of memory|out of memory|Killed\b|exitcode\s*:\s*-?(?:9|11)\b/;

/** `[0000000000000002],[4]` or `1,3,5,7,` or `16-23` → rank numbers. */
export function parseRankList(text: string): number[] {
  const ranks: number[] = [];
  for (const token of text.split(/[\s,;[\]]+/)) {
    const range = /^(\d+)-(\d+)$/.exec(token);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      for (let rank = from; rank <= to && rank - from < 1_000_000; rank++) ranks.push(rank);
    } else if (/^\d+$/.test(token)) ranks.push(Number(token));
  }
  return ranks;
}

/** A cheap test first: most lines of a big plog are INFO chatter that can hold none of the patterns below. */
const WORTH_A_LOOK = /ERROR|EI\d{4}|EJ\d{4}|Entry-Hccl|rror|imeout|time out|fail|\||rank|Rank|deviceLogicId|cqe|CQE|Killed|Segmentation/;

function findingOf(line: string): { finding?: Finding; identity?: Identity } {
  let match = LISTEN_FAIL.exec(line);
  if (match) return { finding: { kind: "port_in_use", localIp: match[2], port: int(match[3]), code: match[1] === "2" ? "host" : "device" } };
  match = BIND_CODE.exec(line);
  if (match) {
    const bound = BOUND_ADDRESS.exec(line);
    return { finding: { kind: "port_in_use", code: match[1], localIp: bound?.[1], port: int(bound?.[2]) } };
  }
  if (HCCP_BUSY.test(line)) return { finding: { kind: "port_in_use", code: "EJ0001" } };
  match = CONFIG_CODE.exec(line);
  if (match || CONFIG_TEXT.test(line)) return { finding: { kind: "config", code: match?.[1] } };
  match = line.includes("visible device") ? VISIBLE_DEVICE.exec(line) : null;
  if (match) return { finding: { kind: "config", code: "ASCEND_RT_VISIBLE_DEVICES" } };
  if (ROOT_TIMEOUT.test(line)) return { finding: { kind: "root_timeout" }, identity: { root: true } };
  match = ROOT_CONNECTED.exec(line);
  if (match) return { finding: { kind: "root_connected", ranks: parseRankList(match[1] ?? "") }, identity: { root: true } };
  match = AGENTS_MISSING.exec(line);
  if (match) return { finding: { kind: "agents_missing", ranks: parseRankList(match[1] ?? "") } };
  if (AGENT_TIMEOUT.test(line)) return { finding: { kind: "agent_timeout" } };
  match = AGENT_CONNECT.exec(line);
  if (match) return { finding: { kind: "agent_timeout", remoteIp: match[1], port: int(match[2]) } };
  match = LINK_ROW.exec(line);
  if (match && /time ?out|fail/i.test(match[7] ?? "")) {
    return {
      finding: { kind: "link_timeout", remoteIp: match[1], remoteRank: int(match[2]), port: int(match[3]), localIp: match[4], tls: match[8] },
      identity: { rank: int(match[5]), deviceIp: match[4], weight: 3 },
    };
  }
  match = TRANSPORT_INIT.exec(line);
  if (match) {
    return {
      finding: { kind: "link_timeout", remoteRank: int(match[4]), remoteIp: match[5], tag: TAG.exec(line)?.[1] },
      identity: { rank: int(match[1]), hostIp: match[2], deviceId: int(match[3]), weight: 3 },
    };
  }
  if (LINK_TIMEOUT.test(line)) return { finding: { kind: "link_timeout", code: ERROR_CODE.exec(line)?.[1] } };
  if (CONSISTENCY.test(line)) return { finding: { kind: "consistency", code: ERROR_CODE.exec(line)?.[1], tag: TAG.exec(line)?.[1] } };
  match = CQE_SCREEN.exec(line) ?? CQE_HEARTBEAT.exec(line);
  if (match) {
    return {
      finding: {
        kind: "error_cqe",
        localServer: match[1],
        localDeviceId: int(match[2]),
        localIp: match[3],
        remoteServer: match[4],
        remoteDeviceId: int(match[5]),
        remoteIp: match[6],
      },
      identity: { deviceId: int(match[2]), deviceIp: match[3] },
    };
  }
  if (CQE_ANY.test(line)) return { finding: { kind: "error_cqe" } };
  if (NOTIFY_TIMEOUT.test(line)) {
    const group = GROUP_RANK.exec(line);
    return {
      finding: { kind: "notify_timeout", code: ERROR_CODE.exec(line)?.[1], remoteRank: int(REMOTE_RANK.exec(line)?.[1]), tag: TAG.exec(line)?.[1] },
      identity: group ? { rankSize: int(group[1]), rank: int(group[2]), weight: 1 } : undefined,
    };
  }
  if (INIT_FAILED.test(line)) return { finding: { kind: "init_failed", code: ERROR_CODE.exec(line)?.[1] } };
  match = ERROR_CODE.exec(line);
  if (match?.[1] !== undefined && !CONSEQUENCE_CODES.has(match[1])) return { finding: { kind: "other_error", code: match[1] } };
  if (CRASH.test(line)) return { finding: { kind: "other_error", code: "crash" } };
  return {};
}

/** Reads one line (without its newline). */
export function readLine(line: string): LineReading {
  const plog = PLOG_PREFIX.exec(line);
  let rest = line;
  let speakerRank: number | undefined;
  let known = plog !== null;
  const host = HOST_PREFIX.exec(line);
  if (host) {
    rest = line.slice(host[0].length);
    known = true;
  }
  const torchrun = TORCHRUN_RANK.exec(rest) ?? VLLM_WORKER.exec(rest);
  if (torchrun) {
    speakerRank = Number(torchrun[1]);
    rest = rest.slice(torchrun[0].length);
    known = true;
  }
  if (plog && plog[1] !== "ERROR" && plog[1] !== "WARNING" && plog[1] !== "WARN") {
    // INFO/DEBUG/EVENT chatter, the bulk of a plog: every HCCL failure shape cited here is logged at ERROR level, so
    // such a line can only tell who is speaking.
    return { known: true, error: false, identity: identityOf(line) };
  }
  const errorLevel = plog ? plog[1] === "ERROR" : /\[ERROR\]|\bERROR\b/.test(rest);
  if (!WORTH_A_LOOK.test(rest)) return { known: known || OTHER_KNOWN.test(rest), error: errorLevel, speakerRank };
  const identity = identityOf(rest);
  const { finding, identity: findingIdentity } = findingOf(rest);
  const hasCode = ERROR_CODE.test(rest);
  return {
    known: known || identity !== undefined || finding !== undefined || hasCode || OTHER_KNOWN.test(rest),
    error: errorLevel || hasCode || finding !== undefined,
    identity: findingIdentity ? { ...identity, ...findingIdentity } : identity,
    speakerRank,
    finding,
  };
}
