/** Event-stream clients for the sse bench: plain HTTP/1.1 connections that note when each `faults` notice arrives. */
import http from "node:http";

export interface SseClient {
  status: number;
  retryAfter: string | null;
  /** The body of a refusal (the API error shape). */
  body: string;
  /** performance.now() at which each notice (its `changed` number) arrived. */
  arrivals: Map<number, number>;
  /** Set when the client saw the server end or cut the connection (a client that does not read never does). */
  closedAt: number | null;
  /** The client's port, to find its connection on the server's side. */
  localPort: number;
  close(): void;
}

const changed = /"changed":(\d+)/;

/**
 * Opens GET `url` with `headers`. A reading client parses each complete frame as it comes; one with `read: false`
 * pauses its response at once, so the kernel's buffers and then the server's fill up, as with a stalled browser.
 */
export function openSseClient(url: string, headers: Record<string, string>, { read = true } = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const client: SseClient = {
        status: response.statusCode ?? 0,
        retryAfter: (response.headers["retry-after"] as string | undefined) ?? null,
        body: "",
        arrivals: new Map(),
        closedAt: null,
        localPort: response.socket.localPort ?? 0,
        close: () => request.destroy(),
      };
      const closed = () => (client.closedAt ??= performance.now());
      response.on("close", closed);
      response.on("error", closed);
      if (client.status !== 200) {
        response.setEncoding("utf8");
        response.on("data", (text: string) => (client.body += text));
        response.on("end", () => resolve(client));
        return;
      }
      if (!read) {
        response.pause();
        resolve(client);
        return;
      }
      let pending = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        const now = performance.now();
        pending += text;
        let end: number;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!frame.startsWith("event: faults")) continue;
          const match = changed.exec(frame);
          if (match) client.arrivals.set(Number(match[1]), now);
        }
      });
      resolve(client);
    });
    request.on("error", reject);
  });
}
