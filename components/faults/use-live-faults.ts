"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { faultKeys } from "./api";
import { watchFaultEvents } from "./live-events";

/**
 * A refused stream (the server's or the user's cap on event streams: 503 / 429 with Retry-After, which EventSource
 * cannot read) closes the EventSource for good; it is opened again after this long, the longer of the two waits.
 */
const reopenAfterRefusalMs = 30_000;

/**
 * Live updates: one EventSource on /api/v1/events (server-sent events fed by PostgreSQL LISTEN/NOTIFY). A
 * `faults` message for this cluster, a `resync` (the server may have missed notices) or a reconnect after an error
 * refreshes the fault queries (timeline, statistics, health): see live-events.ts. EventSource reconnects by itself
 * after a dropped stream (the server sends `retry:`), and is opened anew after a refusal; there is no polling.
 */
export function useLiveFaults(cluster: string | null, onChange?: () => void): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!cluster || typeof EventSource === "undefined") return;
    const onFaults = () => {
      void client.invalidateQueries({ queryKey: faultKeys.all });
      onChange?.();
    };
    let stop = () => {};
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const source = new EventSource(`/api/v1/events?cluster=${encodeURIComponent(cluster)}`);
      const unwatch = watchFaultEvents(source, onFaults);
      const onError = () => {
        if (source.readyState !== EventSource.CLOSED) return;
        stop();
        reopen = setTimeout(() => {
          open();
          onFaults(); // notices may have been missed while refused
        }, reopenAfterRefusalMs);
      };
      source.addEventListener("error", onError);
      stop = () => {
        unwatch();
        source.removeEventListener("error", onError);
        source.close();
      };
    };
    open();
    return () => {
      clearTimeout(reopen);
      stop();
    };
  }, [cluster, client, onChange]);
}
