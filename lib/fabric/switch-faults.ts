/**
 * `SwitchPortId` 0xFFFF marks a chip alarm (the whole chip), any other value a port alarm: `INVALID_PORTID 0xFFFF`
 * and `GetAlarmType` in the 灵衢 DCMI driver's header (fabricSources.lqdcmiHeader). Chip and port ids count from 0.
 */
export const chipAlarmPortId = 0xffff;

/** A node chip of the server a SwitchInfoCfg came from, as stored (db/queries/fabric.ts `nodeChipsOfServer`). */
export interface KnownNodeChip {
  key: string;
  planeKey: string;
  ports: number | null;
  /** Optical ports from the chip into its plane. */
  uplinks: number;
}

export type SwitchFaultPlace =
  | {
      mapped: true;
      chipKey: string;
      planeKey: string;
      /** The port the fault names, or null for a chip alarm or a port past the chip's known ports. */
      port: number | null;
      /** True when the fault named a port the chip does not have (kept on the chip, the number kept in raw). */
      portOutOfRange: boolean;
    }
  | { mapped: false; reason: "no-fabric" | "unknown-chip" };

/**
 * Where a `SwitchInfoCfg` fault of one server lands on the stored fabric: the server's node chip `SwitchChipId`
 * (and its plane), with the port when it names one. A chip the fabric does not have (no profile with a bus, or a chip
 * id past the profile's node chips) is unmapped: the caller keeps the event on the server, never drops it.
 */
export function placeSwitchFault(chips: ReadonlyMap<number, KnownNodeChip>, chipId: number, portId: number): SwitchFaultPlace {
  if (chips.size === 0) return { mapped: false, reason: "no-fabric" };
  const chip = chips.get(chipId);
  if (!chip) return { mapped: false, reason: "unknown-chip" };
  if (portId === chipAlarmPortId) return { mapped: true, chipKey: chip.key, planeKey: chip.planeKey, port: null, portOutOfRange: false };
  const outOfRange = portId < 0 || (chip.ports !== null && portId >= chip.ports);
  return { mapped: true, chipKey: chip.key, planeKey: chip.planeKey, port: outOfRange ? null : portId, portOutOfRange: outOfRange };
}
