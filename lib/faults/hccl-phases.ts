import type { Bilingual } from "./levels";

/**
 * Where an HCCL job can fail, and where to look first. Source: shared/seeds/002_*.txt ("HCCL集合通信常见问题定位思路").
 * The rule of thumb in every phase: the rank that did NOT report a timeout is usually the culprit.
 */
export interface HcclPhase {
  id: "communicator-init" | "operator-loading" | "execution";
  name: Bilingual;
  when: Bilingual;
  errorCode: string;
  symptom: Bilingual;
  lookFirst: Bilingual;
}

export const hcclPhases: HcclPhase[] = [
  {
    id: "communicator-init",
    name: { en: "Communicator initialisation", zh: "通信域初始化" },
    when: { en: "Before the first iteration completes", zh: "一般在第一轮迭代完成之前" },
    errorCode: "EI0006",
    symptom: {
      en: "Ranks time out connecting to the root rank over the host NIC (TCP)",
      zh: "各 Rank 通过 Host 网卡与 Root Rank 建链（TCP）超时",
    },
    lookFirst: {
      en: "The root rank's log: the ranks that never connected; duplicate device IPs or mixed IPv4/IPv6 in the cluster check; host NIC and port settings",
      zh: "Root Rank 日志中未建链的 Rank；集群信息校验中的重复 Device IP 或 IPv4/IPv6 混用；Host 网卡与端口配置",
    },
  },
  {
    id: "operator-loading",
    name: { en: "Operator loading", zh: "算子加载" },
    when: { en: "When an operator type is first called", zh: "某类算子第一次被调用时" },
    errorCode: "EI0006",
    symptom: {
      en: "Rank-to-rank socket/QP set-up times out on the parameter plane, and the timeouts cascade to neighbours",
      zh: "Rank 间在参数面网络上 socket/QP 建链超时，并级联传递给邻居 Rank",
    },
    lookFirst: {
      en: "The ranks that did not time out; if every rank timed out: TLS certificates, then parameter-plane connectivity",
      zh: "未出现建链超时的 Rank；若全部超时：先查 TLS 证书，再查参数面网络连通性",
    },
  },
  {
    id: "execution",
    name: { en: "Operator execution", zh: "算子执行" },
    when: { en: "While the job runs steadily", zh: "业务稳定运行阶段" },
    errorCode: "EI0002",
    symptom: {
      en: "Notify-wait timeouts; RDMA retransmissions exhausted (\"error cqe\")",
      zh: "Notify Wait 超时；RoCE 报文重传超次（日志关键字 error cqe）",
    },
    lookFirst: {
      en: "The ranks without EI0002; if all have it: link-down history of the NICs at both ends of the error CQE",
      zh: "未上报 EI0002 的 Rank；若全部上报：error cqe 两端网卡的 linkdown 历史",
    },
  },
];
