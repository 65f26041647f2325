/**
 * The port facts Rankscope plans with, each beside its source.
 */
import type { PortRange } from "./ranges";

/**
 * HCCL_IF_BASE_PORT: the first of the host-NIC ports HCCL listens on for communicators created from root info;
 * default 60000, value range [1024, 65520]. CANN 8.0 and earlier take 16 ports from it (60000–60015; CANN 8.0.0
 * envref_07_0074, CANN 6.3 ptmigr_0161), CANN 8.2 and later 32 (60000–60031; CANN 8.2.RC1 / 8.5 / 9.0
 * envref_07_0074, hcclug_000090): https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0074.html
 * The OS must reserve them: `sysctl -w net.ipv4.ip_local_reserved_ports=60000-60031` (same page).
 */
export const HCCL_IF_BASE_PORT_DEFAULT = 60000;
export const HCCL_IF_BASE_PORT_MIN = 1024;
export const HCCL_IF_BASE_PORT_MAX = 65520;
export const HCCL_IF_PORTS_OLD = 16;
export const HCCL_IF_PORTS_NEW = 32;
/** The first CANN release whose reference says 32 ports (8.2.RC1); an unknown version assumes the larger span. */
export const HCCL_IF_PORTS_NEW_SINCE: readonly [number, number] = [8, 2];

/**
 * HCCL_NPU_SOCKET_PORT_RANGE: the NPU-side ports; unset → 16666 (CANN 9.0 envref_07_0144,
 * https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/maintenref/envvar/envref_07_0144.html). Ports,
 * ranges, a comma list of both without overlaps, or `auto` (the OS picks); [1, 1023] are the system's; plan at least as
 * many ports as HCCL processes on one NPU; in multi-card jobs set on every card of the communicator or on none.
 * HCCL_HOST_SOCKET_PORT_RANGE is the same for the host side and overrides HCCL_IF_BASE_PORT (envref_07_0143).
 */
export const HCCL_NPU_SOCKET_PORT_DEFAULT = 16666;
export const HOST_SOCKET_VARIABLE = "HCCL_HOST_SOCKET_PORT_RANGE";
export const NPU_SOCKET_VARIABLE = "HCCL_NPU_SOCKET_PORT_RANGE";
export const IF_BASE_VARIABLE = "HCCL_IF_BASE_PORT";
export const MASTER_PORT_VARIABLE = "MASTER_PORT";
/** CANN's version as a job's environment may record it (Rankscope's own key, kept by lib/jobs/environment's ASCEND_ prefix). */
export const CANN_VERSION_VARIABLE = "ASCEND_CANN_VERSION";

/**
 * torchrun's `--master-port` default (https://docs.pytorch.org/docs/stable/elastic/run.html); two jobs on one node
 * collide on it by default (meta-pytorch/torchtune#2015; hiyouga/LlamaFactory#9330 shifts MASTER_PORT per job on a 910B).
 */
export const MASTER_PORT_DEFAULT = 29500;

/** Ports below 1024 are privileged and the system's ([1, 1023] to be avoided: envref_07_0143 / envref_07_0144). */
export const PRIVILEGED_BELOW = 1024;

/**
 * Linux's default ephemeral range (net.ipv4.ip_local_port_range "32768 60999", Documentation/networking/ip-sysctl:
 * "The default values are 32768 and 60999 respectively"). Ports in it that are not in ip_local_reserved_ports may be
 * handed to an outgoing connection before HCCL binds them: EJ0003 / EI0019 "address in use" on 60000
 * (vllm-project/vllm-ascend#405, #16205).
 */
export const LINUX_EPHEMERAL_DEFAULT: PortRange = { from: 32768, to: 60999 };

export const MAX_PORT = 65535;
