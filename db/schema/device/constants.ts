/** An Atlas A3 server has 16 dies (8 NPUs × 2); HCCL's `device_id` is the die's physical id on its server. */
export const maxDeviceId = 15;
export const portRange = { min: 1, max: 65_535 } as const;
/** Ports below this are the system's reserved range; the rank table rules warn about them. */
export const firstUnreservedPort = 1024;
