/**
 * Where every number of the shipped fabric profiles comes from. A profile's fact names one of these keys (or a short
 * derivation), so the console can show "documented / published / derived / assumed / unknown" beside each number.
 *
 * - official: Huawei's own code or documentation (MindCluster, the 灵衢 DCMI driver, HCCL docs).
 * - published: public material that is not Huawei's reference documentation (wiring analyses, paper summaries).
 * - derived: arithmetic on the two above; the derivation is written beside the fact.
 * - assumed: what the console takes for granted until a source says otherwise.
 * - unknown: not found; the value is null and nothing is drawn from it.
 */
export const fabricSources = {
  /**
   * Third-party analysis of the Atlas 900 A3 SuperPoD (CloudMatrix 384) wiring: 16 cabinets = 12 compute + 4 灵衢 bus
   * cabinets; 48 compute nodes × 8 NPUs; every node has 56 × 400G 灵衢-bus optical ports and 8 × 400G parameter-plane
   * ports; each compute cabinet uplinks 224 × 400G; the 12 compute cabinets use 2,688 × 400G links to 56 bus devices
   * (14 × 4) "consolidated into seven independent network planes", all-to-all.
   */
  cm384Wiring:
    "https://www.besthub.dev/articles/inside-huawei-atlas-900a3-superpod-cm384-supernode-wiring-scheme-a92f17277732",
  /**
   * Summary of Zuo et al., "Serving Large Language Models on Huawei CloudMatrix384" (2025): 48 nodes, each with
   * 8 Ascend 910C (dual-die), 4 Kunpeng CPUs and seven first-tier (L1) UB switches; the UB network is a two-tier
   * non-blocking Clos. (The summary's sentence on the L1→L2 links is cut off in the stored copy.)
   */
  cm384Paper: "https://www.emergentmind.com/topics/cloudmatrix-datacenter-architecture",
  /**
   * Third-party article on CloudMatrix 384: three planes (UB, RDMA, VPC); each 910C has fourteen 400 Gbps UB
   * interfaces; each NPU up to 400 Gbps of RDMA (RoCE) bandwidth on the RDMA plane.
   */
  cm384Planes:
    "https://www.besthub.dev/articles/inside-huawei-s-cloudmatrix384-how-a-384-npu-ai-supernode-achieves-sub-microsecond-latency-2e19b4f44110",
  /**
   * The 灵衢 DCMI kernel module's header `ioctl_comm_def.h` (Huawei, GPL-2.0; found through the code index, file id
   * 37332310878): `#define NUM_CHIP 7`, `#define NUM_PORTS 48`, `#define INVALID_PORTID 0xFFFF` (an event whose
   * switchPortid is 0xFFFF is a chip alarm, else a port alarm: `GetAlarmType`); `switchChipid` and `switchPortid`
   * are "numbered from 0" (从0开始编号).
   */
  lqdcmiHeader: "lqdcmi kernel module, ioctl_comm_def.h (NUM_CHIP, NUM_PORTS, INVALID_PORTID)",
  /**
   * The device plugin reads the node's switch faults from liblingqu-dcmi.so (`lq_dcmi_get_fault_info`) into
   * `SwitchFaultEvent{…, PeerPortDevice, PeerPortId, SwitchChipId, SwitchPortId, …}`; for port-level event types
   * PeerPortDevice names the peer as cpu (0), npu (1) or L2 (2).
   */
  devicePluginSwitch:
    "Ascend/mind-cluster@1b14437b:component/ascend-device-plugin/pkg/device/deviceswitch/ascend_switch.go",
  /** Volcano's `super-pod-size` default 48: "Number of nodes in one SuperPoD of Atlas 900 A3 SuperPoD". */
  volcanoSuperPodSize:
    "Ascend/mind-cluster:docs/en/scheduling/developer_guide/installation_deployment/manual_installation/05_volcano.md",
  /**
   * MindCluster affinity scheduling: an A3 node is 8 HiAM modules of 2 processors (dies); modules are linked by
   * HCCS-L1 inside the node, nodes by HCCS-L2 (the 灵衢 bus); 8 NPUs per Atlas 800T A2 server.
   */
  affinity:
    "Ascend/mind-cluster:docs/en/scheduling/usage/basic_scheduling/01_affinity_scheduling/03_ascend_ai_processor_based_affinity.md",
  /** Atlas 950 SuperPoD (A5 generation): 8,192 NPUs per super pod (Huawei Connect 2025 announcement, press). */
  a5Announcement: "https://technode.global/2025/09/18/huawei-unveils-worlds-most-powerful-superpods-superclusters",
  /** Rank table 2.0 (Atlas 350/850/950): each rank address carries a `plane_id`; planes exist, their count is not given. */
  rankTableV2: "HCCL docs rank_table_config_a5.md; MindCluster hccl.json_file_description.md (Atlas 350/850/950)",
} as const;
