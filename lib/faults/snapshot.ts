import type { DeviceInfoFault, DeviceInfoSnapshot } from "./device-info";

/** An event the device-info source opened earlier and has not closed yet. */
export interface OpenSnapshotEvent {
  id: string;
  deviceId: number | null;
  npuName: string;
  code: string | null;
}

export interface SnapshotDiff {
  /** Faults in the snapshot with no open event: open one each. */
  open: DeviceInfoFault[];
  /** Open events whose fault is gone from the snapshot: close them at the snapshot's UpdateTime. */
  close: { id: string; endedAt: number }[];
  /** Faults still present: their events stay open. */
  unchanged: string[];
}

const key = (npuName: string, code: string | null) => `${npuName}|${code ?? ""}`;

/**
 * Compares the faults of a new device-info snapshot with the events open for that node: a fault that appears opens
 * an event, one that is gone closes its event at the snapshot's time, one that stays leaves its event alone.
 * Several codes of one chip are separate events (each has its own time and level in fault_time_and_level_map).
 */
export function diffSnapshot(open: OpenSnapshotEvent[], snapshot: DeviceInfoSnapshot): SnapshotDiff {
  const current = new Map<string, DeviceInfoFault>();
  for (const fault of snapshot.faults) current.set(key(fault.npuName, fault.code || null), fault);
  const openKeys = new Map<string, OpenSnapshotEvent>();
  for (const event of open) openKeys.set(key(event.npuName, event.code), event);
  const diff: SnapshotDiff = { open: [], close: [], unchanged: [] };
  for (const [k, fault] of current) {
    const existing = openKeys.get(k);
    if (existing) diff.unchanged.push(existing.id);
    else diff.open.push(fault);
  }
  for (const [k, event] of openKeys) {
    if (!current.has(k)) diff.close.push({ id: event.id, endedAt: snapshot.updateTime * 1000 });
  }
  return diff;
}
