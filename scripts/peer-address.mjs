/**
 * Preloaded into the console's server process by scripts/serve.ts (NODE_OPTIONS=--import). Next.js gives neither
 * route handlers nor proxy.ts the connection's address (it fills X-Forwarded-For with it only when the client sent
 * none, so a client can pick its own address). This stamps the socket's address and scheme on every request,
 * overwriting whatever the client sent under these names; server/auth/request.ts reads them and believes
 * X-Forwarded-* only from the proxies in RANKSCOPE_TRUSTED_PROXIES.
 */
import http from "node:http";
import https from "node:https";

const addressHeader = "x-rankscope-peer-address";
const schemeHeader = "x-rankscope-peer-scheme";

function stamp(request) {
  const socket = request.socket;
  request.headers[addressHeader] = (socket && socket.remoteAddress) || "";
  request.headers[schemeHeader] = socket && socket.encrypted ? "https" : "http";
}

for (const Server of [http.Server, https.Server]) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function emitWithPeer(event, ...args) {
    if (event === "request" && args[0] && args[0].headers) stamp(args[0]);
    return emit.call(this, event, ...args);
  };
}
