/**
 * What to check next, per phase: the seed's "look first" lists (shared/seeds/002_*.txt, sections 4.3, 5.3, 6.3) with
 * the commands of the CANN HCCL fault-diagnosis guide (hicann/hccl docs/zh/user_guide/fault_diagnosis/*.md).
 */
import type { Bilingual, DiagnosisPhase } from "./model";

export const PHASE_NAMES: Record<DiagnosisPhase, Bilingual> = {
  config: { en: "rank table / configuration", zh: "RankTable / 配置解析" },
  init: { en: "communicator initialisation", zh: "通信域初始化" },
  load: { en: "operator loading (link set-up)", zh: "算子加载（建链）" },
  execute: { en: "operator execution", zh: "算子执行" },
  port_in_use: { en: "port in use", zh: "端口被占用" },
  unknown: { en: "unknown", zh: "未知" },
};

export const NEXT_STEPS: Record<DiagnosisPhase, Bilingual[]> = {
  config: [
    { en: "Fix the rank table or variable named in the error (rankscope validate hccl.json lists every rule broken).", zh: "修正报错中指出的 RankTable 字段或环境变量（rankscope validate hccl.json 会列出所有违反的规则）。" },
    { en: "A device the runtime refuses (\"Set visible device failed, invalid device=N\", \"open device N failed … 107001\"): compare ASCEND_RT_VISIBLE_DEVICES (and the scheduler's device mask) with npu-smi info: every id must be a device present on the host, and each worker's device must be among them.", zh: "运行时拒绝设备（\"Set visible device failed, invalid device=N\"、\"open device N failed … 107001\"）：对照 npu-smi info 检查 ASCEND_RT_VISIBLE_DEVICES（及调度器的设备掩码）：每个编号都须是本机存在的设备，且各 worker 使用的设备须在其中。" },
    { en: "Check that each rank's device_ip matches its NIC (hccn_tool -i <device> -ip -g) and that IPv4/IPv6 are not mixed.", zh: "确认各 Rank 的 device_ip 与网卡实际地址一致（hccn_tool -i <device> -ip -g），且未混用 IPv4/IPv6。" },
  ],
  port_in_use: [
    { en: "Find the process holding the port (ss -ltnp | grep <port>); a previous training process may still be running: wait for it to exit.", zh: "查找占用端口的进程（ss -ltnp | grep <port>）；可能上一次训练进程仍在运行，等其退出。" },
    { en: "Several processes per NPU or jobs sharing a host: set HCCL_NPU_SOCKET_PORT_RANGE / HCCL_HOST_SOCKET_PORT_RANGE=\"auto\", or HCCL_IF_BASE_PORT to a free range.", zh: "单卡多进程或多作业共用主机时：设置 HCCL_NPU_SOCKET_PORT_RANGE / HCCL_HOST_SOCKET_PORT_RANGE=\"auto\"，或将 HCCL_IF_BASE_PORT 设为空闲端口段。" },
  ],
  init: [
    { en: "Read the root rank's log: the ranks it expected and those that connected; the missing ones are the suspects.", zh: "查看 Root Rank 日志：预期建链数与实际已建链的 Rank，未建链的 Rank 即为嫌疑点。" },
    { en: "For a suspect: did its process reach HcclCommInitRootInfo (grep Entry-HcclCommInitRootInfo), or did it crash or hang earlier (core dump, stack)?", zh: "对嫌疑 Rank：其进程是否执行到 HcclCommInitRootInfo（grep Entry-HcclCommInitRootInfo），还是更早就已崩溃或卡住（core dump、堆栈）？" },
    { en: "Check the host NIC and port to the root (HCCL_IF_IP, HCCL_SOCKET_IFNAME, HCCL_IF_BASE_PORT), host connectivity and VLANs, and HCCL_CONNECT_TIMEOUT against start-up skew.", zh: "检查到 Root 的 Host 网卡与端口（HCCL_IF_IP、HCCL_SOCKET_IFNAME、HCCL_IF_BASE_PORT）、Host 网络连通性与 VLAN 配置，以及 HCCL_CONNECT_TIMEOUT 是否小于各进程启动时间差。" },
    { en: "The root's cluster check: duplicate device IPs or mixed IPv4/IPv6 in the collected rank information.", zh: "Root 的集群信息校验：收集到的 Device IP 是否重复、是否同时出现 IPv4/IPv6。" },
  ],
  load: [
    { en: "The ranks that did NOT time out are the usual root cause: read their first error, or check whether they hung, dumped core or exited early.", zh: "未出现建链超时的 Rank 通常是根因：查看其首个报错，或检查其进程是否卡住、coredump 或提前退出。" },
    { en: "If every rank timed out: check the TLS switch and certificates are the same everywhere (hccn_tool -i <device> -tls -g), then parameter-plane connectivity (hccn_tool -i <device> -ping -g address <peer device ip>).", zh: "若全部 Rank 均超时：先确认 TLS 开关与证书一致（hccn_tool -i <device> -tls -g），再检查参数面连通性（hccn_tool -i <device> -ping -g address <对端 device ip>）。" },
    { en: "Compare the error times with HCCL_CONNECT_TIMEOUT (default 120 s): ranks that reached the operator later than that wait in vain.", zh: "比较各 Rank 报错时间差与 HCCL_CONNECT_TIMEOUT（默认 120 秒）：晚于该时间到达算子的 Rank 会导致对端等待超时。" },
  ],
  execute: [
    { en: "The ranks without a notify-wait timeout (EI0002) are the usual root cause: read their first error or their stack if they hung.", zh: "未上报 Notify Wait 超时（EI0002）的 Rank 通常是根因：查看其首个报错，卡住时分析其堆栈。" },
    { en: "For an error CQE: read the link-down history of both NICs (hccn_tool -i <device> -link_stat -g) and the fault events of those dies; raise HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT only if the link is healthy.", zh: "出现 error cqe 时：查询两端网卡的 linkdown 历史（hccn_tool -i <device> -link_stat -g）及对应芯片的故障事件；链路正常时再考虑调大 HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT。" },
    { en: "If every rank timed out without an error CQE: compare the operators (tag, count, dataType) each rank was running; inconsistent data sharding makes ranks call different collectives.", zh: "若全部超时且无 error cqe：比较各 Rank 超时时的算子（tag、count、dataType）；数据集切分不一致会导致不同 Rank 调用不同通信算子而互锁。" },
  ],
  unknown: [
    { en: "No HCCL failure was recognised: add the plog files of every rank (~/ascend/log/debug/plog and run/plog), with ASCEND_GLOBAL_EVENT_ENABLE=1 for HCCL events.", zh: "未识别到 HCCL 故障：请提供所有 Rank 的 plog（~/ascend/log/debug/plog 与 run/plog），并开启 ASCEND_GLOBAL_EVENT_ENABLE=1 记录 HCCL 事件。" },
  ],
};
