/**
 * Which ports are taken where, for the planner: per scope (a host's namespace or a NIC) the ranges held, plus per
 * host the ranges the policy blocks (forbidden, privileged, the unreserved part of the ephemeral range), so a search
 * for a free block skips straight past whatever blocks it.
 */
import { PRIVILEGED_BELOW } from "./constants";
import type { PortHost, PortPlane } from "./model";
import { hostSettingsOf, type PortPolicy } from "./policy";
import { overlaps, uncovered, type PortRange } from "./ranges";

export class Occupancy {
  private readonly held = new Map<string, PortRange[]>();
  private readonly blockedByHost = new Map<string, PortRange[]>();
  private readonly hostModel: Map<string, string | null>;

  constructor(
    private readonly policy: PortPolicy,
    hosts: readonly PortHost[],
  ) {
    this.hostModel = new Map(hosts.map((h) => [h.serverId, h.model]));
  }

  hold(scope: string, range: PortRange): void {
    const list = this.held.get(scope);
    if (list) list.push(range);
    else this.held.set(scope, [range]);
  }

  /** What the policy keeps any planned port off on this host's plane. */
  private blocked(serverId: string, plane: PortPlane): PortRange[] {
    const key = `${plane}|${serverId}`;
    let list = this.blockedByHost.get(key);
    if (list) return list;
    list = [{ from: 1, to: PRIVILEGED_BELOW - 1 }, ...this.policy.forbidden];
    if (plane === "host") {
      const { ephemeral, reserved } = hostSettingsOf(this.policy, serverId, this.hostModel.get(serverId) ?? null);
      list.push(...uncovered(ephemeral, reserved));
    }
    this.blockedByHost.set(key, list);
    return list;
  }

  /** The first range that blocks `range` in any of the scopes (on the hosts' plane), or null when it is free. */
  blocker(range: PortRange, scopes: readonly { scope: string; serverId: string; plane: PortPlane }[]): PortRange | null {
    let worst: PortRange | null = null;
    const consider = (r: PortRange) => {
      if (overlaps(r, range) && (worst === null || r.to > worst.to)) worst = r;
    };
    for (const s of scopes) {
      for (const r of this.held.get(s.scope) ?? []) consider(r);
      for (const r of this.blocked(s.serverId, s.plane)) consider(r);
    }
    return worst;
  }

  /** The lowest start of `size` free ports inside `allowed` in every scope, or null when there is none. */
  findFree(size: number, allowed: readonly PortRange[], scopes: readonly { scope: string; serverId: string; plane: PortPlane }[]): number | null {
    for (const a of allowed) {
      let start = a.from;
      while (start + size - 1 <= a.to) {
        const block = this.blocker({ from: start, to: start + size - 1 }, scopes);
        if (block === null) return start;
        start = block.to + 1;
      }
    }
    return null;
  }
}
