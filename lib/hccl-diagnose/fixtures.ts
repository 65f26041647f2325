/**
 * A failed job's logs with a known culprit, written in the shapes real jobs produce (the same shapes patterns.ts cites):
 * per node `run/plog/plog-<pid>_<time>.log` (INFO: the communicator entry line and operator entries),
 * `debug/plog/plog-<pid>_<time>.log` (the HCCL errors) and the launcher's `train.log` (`[rankN]:` screen errors).
 * Used by the demo seed, the bench and the tests. Files are produced one at a time, so a 200 MB job is never held.
 */
import { generateFromTemplate, writeRankTable, type RankTable } from "../rank-table";

export interface FailedJobScenario {
  /** init: the culprit cannot reach the root rank; load: it never sets up its links; execute: it hangs mid-run. */
  phase: "init" | "load" | "execute";
  servers?: number;
  devicesPerServer?: number;
  culpritRank: number;
  /** Approximate size of each rank's INFO log (operator entries), to reach realistic volumes. Default 8 KiB. */
  bytesPerRank?: number;
  /** The job's start, ISO 8601. Default 2025-11-24T10:15:00Z. */
  startedAt?: string;
}

export interface GeneratedFile {
  path: string;
  text: string;
}

export interface GeneratedLogs {
  /** The job's rank table (version 1.0) as JSON text. */
  rankTable: string;
  culprit: { rank: number; serverId: string; deviceId: number; deviceIp: string; hostIp: string };
  /** The files, produced lazily one by one. */
  files(): Iterable<GeneratedFile>;
}

interface Placement {
  rank: number;
  server: number;
  serverId: string;
  hostIp: string;
  deviceId: number;
  deviceIp: string;
  pid: number;
}

const PROCESS = "python";

/** plog time stamps: `2025-11-24-10:15:00.123.456`. */
function stamp(base: number, offsetMicros: number): string {
  const date = new Date(base + Math.floor(offsetMicros / 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const micros = offsetMicros % 1000;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}-${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}.${pad(micros, 3)}`;
}

function plogName(pid: number, base: number): string {
  const date = new Date(base);
  const digits = date.toISOString().replace(/\D/g, "").slice(0, 17);
  return `plog-${pid}_${digits}.log`;
}

export function generateFailedJobLogs(scenario: FailedJobScenario): GeneratedLogs {
  const servers = scenario.servers ?? 2;
  const devices = scenario.devicesPerServer ?? 8;
  const table: RankTable = generateFromTemplate({ version: "1.0", superPods: 1, serversPerSuperPod: servers, npusPerServer: devices, diesPerNpu: 1 });
  const placements: Placement[] = [];
  table.server_list.forEach((server, index) => {
    for (const device of server.device) {
      placements.push({
        rank: Number(device.rank_id),
        server: index,
        serverId: server.server_id,
        hostIp: server.host_ip ?? `172.16.0.${index}`,
        deviceId: Number(device.device_id),
        deviceIp: device.device_ip ?? "",
        pid: 100_000 + index * 100 + Number(device.device_id),
      });
    }
  });
  const size = placements.length;
  if (!Number.isInteger(scenario.culpritRank) || scenario.culpritRank < 0 || scenario.culpritRank >= size) {
    throw new RangeError(`culpritRank must be a rank of the job (0..${size - 1}), not ${scenario.culpritRank}`);
  }
  const culprit = placements[scenario.culpritRank]!;
  const base = Date.parse(scenario.startedAt ?? "2025-11-24T10:15:00Z");
  const root = placements[0]!;
  const group = `${root.hostIp}%eth0_60000_0_${base * 1000}`;
  const bytesPerRank = scenario.bytesPerRank ?? 8192;
  const rankTable = writeRankTable(table);

  function runPlog(place: Placement): string {
    const prefix = (micros: number, level = "INFO") => `[${level}] HCCL(${place.pid},${PROCESS}):${stamp(base, micros)}`;
    const lines = [
      ...(place.rank === root.rank ? [`${prefix(1_000)} [op_base.cc:1105] [${place.pid}]Entry-HcclGetRootInfo:rootInfo[${root.hostIp}:60000], deviceLogicId[${place.deviceId}]`] : []),
      `${prefix(2_000 + place.rank)} [op_base.cc:1292] [${place.pid + 1}]Entry-HcclCommInitRootInfoInner:ranks[${size}], rank[${place.rank}], rootinfo: host ip[${root.hostIp}] port[60000] nicDeploy[1] identifier[${group}], deviceLogicId[${place.deviceId}]`,
      `[INFO] RUNTIME(${place.pid},${PROCESS}):${stamp(base, 3_000)} [device.cc:312] ${place.pid} Init: device ${place.deviceId} init success.`,
    ];
    let bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
    // Steady-state chatter: one AllReduce entry per step, as HCCL_ENTRY_LOG_ENABLE=1 prints it (hicann/hccl
    // notify_wait_timeout_EI0002.md), with the runtime's stream lines between.
    const stopsAt = scenario.phase === "execute" && place.rank === culprit.rank ? 0.6 : 1;
    for (let step = 0; bytes < bytesPerRank * stopsAt; step++) {
      const micros = 60_000_000 + step * 250_000 + place.rank;
      const line =
        step % 3 === 2
          ? `[INFO] RUNTIME(${place.pid},${PROCESS}):${stamp(base, micros)} [stream.cc:1022] ${place.pid + 7} Synchronize: stream_id=7, task_id=${step * 4}, sync ok.`
          : `[INFO] HCCL(${place.pid},${PROCESS}):${stamp(base, micros)} [hccl_opbase_atrace_info.cc:56][${place.pid + 3}]Entry-HcclAllReduce: tag[AllReduce_${group}], sendBuf[0x1241d3dcdc00], recvBuf[0x124702f40200], count[10746295], dataType[float32], op[sum], localRank[${place.rank}], streamId[7],comm[0xfffe380078d0], deviceLogicId[${place.deviceId}]`;
      lines.push(line);
      bytes += line.length + 1;
    }
    return `${lines.join("\n")}\n`;
  }

  /** The HCCL errors of one rank, in its debug plog. */
  function debugPlog(place: Placement): string | undefined {
    const error = (micros: number, source: string, text: string) => `[ERROR] HCCL(${place.pid},${PROCESS}):${stamp(base, micros)} [${source}] [${place.pid + 1}]${text}`;
    const peer = placements[(place.rank + size - 1) % size]!;
    if (scenario.phase === "init") {
      if (place.rank === culprit.rank) {
        return `${[
          error(122_000_000, "topoinfo_exchange_agent.cc:190", "[InitGroupStage][RanktableDetect]topo exchange agent get socket timeout! timeout[120]"),
          error(122_000_100, "topoinfo_exchange_agent.cc:41", `[TopoInfoExchangeAgent][Setup]TopoExchangeAgent: connect server[${root.hostIp} : 60000] failed`),
        ].join("\n")}\n`;
      }
      if (place.rank !== root.rank) return undefined;
      const connected = placements.filter((other) => other.rank !== culprit.rank).map((other) => `[${String(other.rank).padStart(16, "0")}]`);
      return `${[
        error(122_000_000, "topoinfo_exchange_server.cc:314", "[InitGroupStage][RanktableDetect]topo exchange server get socket timeout! timeout[120 s]"),
        error(122_000_200, "topoinfo_exchange_server.cc:517", `[InitGroupStage][DisplayConnectionedRank]connected rankinfo[LINE 0]: ${connected.join(",")};`),
      ].join("\n")}\n`;
    }
    if (place.rank === culprit.rank) return undefined;
    if (scenario.phase === "load") {
      // The cascade: the culprit's neighbour waits for the culprit, the others for their neighbour.
      return `${[
        error(185_000_000, "hccl_socket_manager.cc:797", `[Wait][LinkEstablish]wait socket establish timeout, role[1] rank[${place.rank}] timeout[120 s]`),
        error(185_000_200, "hccl_socket_manager.cc:623", "   _________________________LINK_ERROR_INFO___________________________"),
        error(185_000_210, "hccl_socket_manager.cc:624", `   |  comm error, device[${place.deviceId}]`),
        error(185_000_220, "hccl_socket_manager.cc:626", "   | dest_ip(user_rank) | dest_port | src_ip(user_rank) | src_port | MyRole | Status | TlsStatus |"),
        error(185_000_230, "hccl_socket_manager.cc:583", `   | ${peer.deviceIp}(${peer.rank}) | 16666 | ${place.deviceIp}(${place.rank}) | 0 | client | time out | DISABLE |`),
        error(185_100_000, "transport_manager.cc:1325", `[InitChannelStage][Timeout]Transport init error! createLink para:rank[${place.rank}]-localUserrank[${place.rank}]-localIpAddr[${place.hostIp}/${place.deviceId}], remoteRank[${peer.rank}]-remoteUserrank[${peer.rank}]-remoteIpAddr[${peer.hostIp}/${peer.deviceId}], machineType[1], linkMode[1], isUsedRdma[1], tag[AllReduce_${group}]`),
      ].join("\n")}\n`;
    }
    return `${[
      error(1_900_000_000, "task_exception_handler.cc:908", `[TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[7], taskID[${4_000 + place.rank}], tag[AllReduce_${group}], AlgType(level 0-1-2):[fullmesh-ring-NHR].`),
      error(1_900_000_010, "task_exception_handler.cc:771", `[TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[${group}], user define information[], rankSize[${size}], rankId[${place.rank}].`),
    ].join("\n")}\n`;
  }

  /** The launcher's screen log of one node: torchrun's `[rankN]:` lines with EI0002 / EI0006 (vllm-ascend#3413, #486). */
  function trainLog(server: number): string {
    const lines: string[] = [];
    for (const place of placements) {
      if (place.server !== server || place.rank === culprit.rank || scenario.phase === "init") continue;
      const peer = placements[(place.rank + size - 1) % size]!;
      lines.push(`[rank${place.rank}]: [ERROR] ${stamp(base, 0).slice(0, 19)} (PID:${place.pid}, Device:${place.deviceId}, RankID:${place.rank}) ERR02200 DIST call hccl api failed.`);
      lines.push(
        scenario.phase === "load"
          ? `[rank${place.rank}]: EI0006: [PID: ${place.pid}] ${stamp(base, 185_000_000)} Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck`
          : `[rank${place.rank}]: EI0002: [PID: ${place.pid}] ${stamp(base, 1_900_000_000)} The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [${peer.rank}]. base information: [streamID:[7], taskID[${4_000 + place.rank}], taskType[Notify Wait], tag[AllReduce_${group}], AlgType(level 0-1-2):[fullmesh-ring-NHR].]. task information: [notify id:[0x0000000000000213], stage:[0], remote rank:[${peer.rank}]]. group information: [group:[${group}], user define information[Unspecified], rankSize[${size}], rankId[${place.rank}]]`,
      );
    }
    return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  }

  function* files(): Iterable<GeneratedFile> {
    for (let server = 0; server < servers; server++) {
      const node = placements.find((place) => place.server === server)!.serverId;
      for (const place of placements) {
        if (place.server !== server) continue;
        yield { path: `${node}/run/plog/${plogName(place.pid, base)}`, text: runPlog(place) };
        const debug = debugPlog(place);
        if (debug !== undefined) yield { path: `${node}/debug/plog/${plogName(place.pid, base)}`, text: debug };
      }
      const train = trainLog(server);
      if (train !== "") yield { path: `${node}/train.log`, text: train };
    }
  }

  return {
    rankTable,
    culprit: { rank: culprit.rank, serverId: culprit.serverId, deviceId: culprit.deviceId, deviceIp: culprit.deviceIp, hostIp: culprit.hostIp },
    files,
  };
}
