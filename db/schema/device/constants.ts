/** An Atlas A3 server has 16 dies (8 NPUs × 2); HCCL's `device_id` is the die's physical id on its server. */
export const maxDeviceId = 15;
/** "2.0" (Atlas 350/850/950): device_id and local_id are in [0, 64] (HCCL's A5 reference, rank_table_config_a5.md). */
export const maxA5DeviceId = 64;
export const portRange = { min: 1, max: 65_535 } as const;
/** Ports below this are the system's reserved range; the rank table rules warn about them. */
export const firstUnreservedPort = 1024;
