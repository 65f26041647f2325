/**
 * Preloaded into the console's server process by scripts/serve.ts (NODE_OPTIONS=--import), like body-limit.mjs:
 * refuses a request whose query string has more than `maxParameters` parameters, 414 in the API's error shape, before
 * Next.js parses it. Next.js 16 takes a parameter's values again for each occurrence of its name (`getAll` per key of
 * `searchParams.keys()`, in its proxy adapter and in its route's URL parsing), so its work is quadratic in the
 * repeats: one request with 6,000 repeated parameters (12 KB, no session needed) held the event loop for 276 ms of
 * CPU, 3,000 for 84 ms, 1,000 for 15 ms, and the hostile-input suite's 500 for 9-45 ms (load average 16-18).
 * No page or API call of the console needs more than a few dozen.
 */
import http from "node:http";
import https from "node:https";

export const maxParameters = 256;

/** The parameters URLSearchParams finds in `url`'s query (its non-empty `&`-separated parts), counted to bound + 1. */
export function parameterCount(url, bound = maxParameters) {
  const query = url.indexOf("?");
  if (query < 0) return 0;
  let count = 0;
  let inPart = false;
  for (let at = query + 1; at < url.length && count <= bound; at++) {
    if (url.charCodeAt(at) === 0x26) inPart = false;
    else if (!inPart) {
      inPart = true;
      count++;
    }
  }
  return count;
}

for (const Server of [http.Server, https.Server]) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function emitWithQueryLimit(event, ...args) {
    const [request, response] = args;
    if (event === "request" && request && response && parameterCount(request.url ?? "") > maxParameters) {
      // Node reads and drops a body nobody takes once the answer is sent.
      response.writeHead(414, { "content-type": "application/json", "cache-control": "no-store" });
      response.end(JSON.stringify({ error: { code: "too_many_parameters", message: `the query string has more than ${maxParameters} parameters`, details: { limit: maxParameters } } }));
      return true;
    }
    return emit.call(this, event, ...args);
  };
}
