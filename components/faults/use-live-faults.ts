"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { faultKeys } from "./api";
import { watchFaultEvents } from "./live-events";

/**
 * Live updates: one EventSource on /api/v1/events (server-sent events fed by PostgreSQL LISTEN/NOTIFY). A
 * `faults` message for this cluster, a `resync` (the server may have missed notices) or a reconnect after an error
 * refreshes the fault queries (timeline, statistics, health): see live-events.ts. EventSource reconnects by itself
 * (the server sends `retry:`); there is no polling.
 */
export function useLiveFaults(cluster: string | null, onChange?: () => void): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!cluster || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/v1/events?cluster=${encodeURIComponent(cluster)}`);
    const onFaults = () => {
      void client.invalidateQueries({ queryKey: faultKeys.all });
      onChange?.();
    };
    const stop = watchFaultEvents(source, onFaults);
    return () => {
      stop();
      source.close();
    };
  }, [cluster, client, onChange]);
}
