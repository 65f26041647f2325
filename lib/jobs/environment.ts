/**
 * The environment a job ran with, as far as it matters for where and how HCCL communicates: HCCL_* (timeouts,
 * interfaces, ports: hicann/hccl docs/zh/user_guide/hccl_env/), MASTER_ADDR/MASTER_PORT (root-rank address for
 * communicator initialisation, shared/seeds/002), CPU_AFFINITY_CONF (torch_npu, Ascend/pytorch
 * docs/en/api/environment_variable/CPU_AFFINITY_CONF.md), ASCEND_RT_VISIBLE_DEVICES, RANK_TABLE_FILE and the launch
 * sizes. Other variables are not stored: an environment dump carries credentials and paths nobody asked to keep.
 */
const kept: RegExp[] = [
  /^HCCL_/,
  /^HCCN_/,
  /^ASCEND_/,
  /^MASTER_(ADDR|PORT)$/,
  /^CPU_AFFINITY_CONF$/,
  /^RANK_TABLE_FILE$/,
  /^(WORLD_SIZE|RANK|LOCAL_RANK|RANK_SIZE|RANK_ID|DEVICE_ID|NNODES|NODE_RANK|NPUS_PER_NODE|LOCAL_WORLD_SIZE)$/,
  /^(GLOO|TP)_SOCKET_IFNAME$/,
];

export const maxEnvironmentEntries = 500;

export interface RecordedEnvironment {
  variables: Record<string, string>;
  /** Names given but not kept. */
  ignored: string[];
}

export function isRecordedVariable(name: string): boolean {
  return kept.some((pattern) => pattern.test(name));
}

/** `export A=1` / `A="1"` lines (an `env` dump or a launch script's exports) → name → value; other lines are skipped. */
export function parseEnvironmentText(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    variables[match[1]!] = value;
  }
  return variables;
}

/** The variables worth keeping of those given (an object, or env-dump text). */
export function recordEnvironment(input: Record<string, string> | string): RecordedEnvironment {
  const given = typeof input === "string" ? parseEnvironmentText(input) : input;
  const variables: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (isRecordedVariable(name) && Object.keys(variables).length < maxEnvironmentEntries) variables[name] = value;
    else ignored.push(name);
  }
  return { variables, ignored };
}

/** Per-rank variables (rank number → object or env-dump text), each filtered like a job's; ranks left with none drop out. */
export function recordRankEnvironment(input: Record<string, Record<string, string> | string>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [rank, given] of Object.entries(input)) {
    const { variables } = recordEnvironment(given);
    if (Object.keys(variables).length > 0) out[String(Number(rank))] = variables;
  }
  return out;
}
