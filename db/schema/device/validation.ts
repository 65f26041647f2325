import { z } from "zod";
import { maxDeviceId, portRange } from "./constants";

const port = z.number().int().min(portRange.min).max(portRange.max).nullable();
const ip = z.union([z.ipv4(), z.ipv6()]).nullable();

export const deviceInputSchema = z.object({
  deviceId: z.number().int().min(0).max(maxDeviceId),
  dieIndex: z.union([z.literal(0), z.literal(1)]),
  superDeviceId: z.number().int().min(0).nullable(),
  deviceIp: ip,
  devicePort: port,
  backupDeviceIp: ip,
  backupDevicePort: port,
  hostPort: port,
});
export type DeviceInput = z.infer<typeof deviceInputSchema>;
