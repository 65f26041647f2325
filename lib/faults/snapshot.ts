import type { DeviceInfoFault, DeviceInfoSnapshot, SwitchFault } from "./device-info";

/** What identifies a fault across snapshots: a chip's code, or a 灵衢 switch fault's FaultTimeAndLevelMap key. */
export const chipFaultKey = (npuName: string, code: string | null) => `chip|${npuName}|${code ?? ""}`;
export const switchFaultKey = (key: string) => `switch|${key}`;

/** An event the device-info source opened earlier and has not closed yet, with its fault key (above). */
export interface OpenSnapshotEvent {
  id: string;
  key: string;
}

export interface SnapshotDiff {
  /** Chip faults in the snapshot with no open event: open one each. */
  open: DeviceInfoFault[];
  /** Switch faults (SwitchInfoCfg) with no open event: open one each. */
  openSwitch: SwitchFault[];
  /** Open events whose fault is gone from the snapshot: close them at the snapshot's UpdateTime. */
  close: { id: string; endedAt: number }[];
  /** Faults still present (or not reported on, like switch faults of a snapshot without SwitchInfoCfg): their events stay open. */
  unchanged: string[];
}

/**
 * Compares the faults of a new device-info snapshot with the events open for that node: a fault that appears opens
 * an event, one that is gone closes its event at the snapshot's time, one that stays leaves its event alone.
 * Several codes of one chip are separate events (each has its own time and level in fault_time_and_level_map), as
 * are faults of different switch chips or ports. A snapshot without SwitchInfoCfg says nothing about switch faults.
 */
export function diffSnapshot(open: OpenSnapshotEvent[], snapshot: DeviceInfoSnapshot): SnapshotDiff {
  const chips = new Map<string, DeviceInfoFault>();
  for (const fault of snapshot.faults) chips.set(chipFaultKey(fault.npuName, fault.code || null), fault);
  const switches = new Map<string, SwitchFault>();
  for (const fault of snapshot.switchInfo?.faults ?? []) switches.set(switchFaultKey(fault.key), fault);
  const openByKey = new Map<string, OpenSnapshotEvent>();
  for (const event of open) openByKey.set(event.key, event);

  const diff: SnapshotDiff = { open: [], openSwitch: [], close: [], unchanged: [] };
  for (const [key, fault] of chips) {
    const existing = openByKey.get(key);
    if (existing) diff.unchanged.push(existing.id);
    else diff.open.push(fault);
  }
  for (const [key, fault] of switches) {
    const existing = openByKey.get(key);
    if (existing) diff.unchanged.push(existing.id);
    else diff.openSwitch.push(fault);
  }
  for (const [key, event] of openByKey) {
    if (chips.has(key) || switches.has(key)) continue;
    if (key.startsWith("switch|") && snapshot.switchInfo === null) diff.unchanged.push(event.id);
    else diff.close.push({ id: event.id, endedAt: snapshot.updateTime * 1000 });
  }
  return diff;
}
