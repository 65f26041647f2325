"use client";

import { useCallback, useRef } from "react";
import type { ReaderPort } from "./hosted-table";
import type { RemoteText } from "./source-text";
import type { ReaderRequest } from "./text-reader.worker";

/**
 * The text reader worker of the open in progress: it fetches, decompresses and decodes a table's text while the
 * validation worker parses it, through the port `start` returns. `onLost(open)` is told when the reader of that open
 * failed to load or crashed; from then on `start` answers undefined and the validation worker reads the text itself.
 */
export function useTextReader(onLost: (open: number) => void) {
  const textReader = useRef<Worker | undefined>(undefined);
  const failed = useRef(false);
  const stop = useCallback(() => {
    textReader.current?.terminate();
    textReader.current = undefined;
  }, []);

  const start = useCallback(
    (source: Blob | RemoteText, open: number): ReaderPort | undefined => {
      stop();
      if (failed.current) return undefined;
      let created: Worker;
      try {
        created = new Worker(new URL("./text-reader.worker.ts", import.meta.url), { type: "module" });
      } catch {
        failed.current = true;
        return undefined;
      }
      created.onerror = () => {
        if (textReader.current !== created) return;
        failed.current = true;
        stop();
        onLost(open);
      };
      const channel = new MessageChannel();
      created.postMessage({ source, port: channel.port1 } satisfies ReaderRequest, [channel.port1]);
      textReader.current = created;
      return { port: channel.port2 };
    },
    [stop, onLost],
  );

  /** Whether a reader failed (the open that used it is then tried again without one). */
  const hasFailed = useCallback(() => failed.current, []);
  return { start, stop, hasFailed };
}
