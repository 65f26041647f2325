/**
 * Preloaded into the console's server process by scripts/serve.ts (NODE_OPTIONS=--import), beside peer-address.mjs:
 * ends each API request's body one byte past its route's limit, before Next.js buffers it. Next.js reads every body
 * in full for proxy.ts before the route handler runs, so without this a route refused an over-limit body only once
 * all of it (up to 33 MB) was held in memory, and a client could make the server buffer 33 MB for a 64 KiB route.
 *
 * The limits come from server/http/body-limits.ts, as JSON in RANKSCOPE_BODY_LIMITS (without it nothing is done).
 * For each /api/ request the route's limit is stamped on it (x-rankscope-body-limit, overwriting what a client
 * sent); a body declared (Content-Length) larger than that ends at once, and any other body (chunked) is counted
 * and ends after limit + 1 bytes, so the route handler's own check answers 413 in the error shape (readBytes never
 * takes more than the stamp, so a cut body is never taken for a whole one). The rest is read and dropped as it
 * arrives: nothing is buffered, and the connection stays usable for the answer.
 */
import http from "node:http";
import https from "node:https";

const limitHeader = "x-rankscope-body-limit";

function rulesFromEnvironment() {
  const text = process.env.RANKSCOPE_BODY_LIMITS;
  if (!text) return undefined;
  const rules = JSON.parse(text);
  return { default: rules.default, routes: rules.routes.map((route) => ({ ...route, regex: new RegExp(route.pattern) })) };
}

function limitOf(rules, method, pathname) {
  return rules.routes.find((route) => route.method === method && route.regex.test(pathname))?.limit ?? rules.default;
}

/**
 * After an answer given before the body was read (a cut body's 413, a 405 or 401 answered at once), Node closes a
 * `Connection: close` socket at once (socket.destroySoon) while the client is still sending the rest, and a client
 * busy writing then fails its write (EPIPE) before it has read the answer (the hostile-input suite saw `write EPIPE`
 * for over-limit bodies sent chunked, and for a 128 MiB body sent to a method the route lacks). So the close waits
 * until the client has sent the rest (or, as Node's client does once it has the answer, ended its side), 10 s at
 * most, and `dropRest` drops what still arrives: a lingering close, as HTTP servers do (RFC 9112 §9.6). Returns what
 * the bounded push calls once the parser has seen the message's end.
 */
const lingerMs = 10_000;
function lingerUntilRead(request, dropRest) {
  const socket = request.socket;
  if (!socket || typeof socket.destroySoon !== "function") return () => {};
  let complete = false;
  let pending;
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function destroyOnceRead() {
    if (complete) return destroySoon.call(this);
    const timer = setTimeout(() => destroySoon.call(this), lingerMs);
    timer.unref?.();
    pending = () => {
      clearTimeout(timer);
      destroySoon.call(this);
    };
    dropRest();
  };
  return () => {
    complete = true;
    socket.destroySoon = destroySoon;
    pending?.();
    pending = undefined;
  };
}

/**
 * Puts a bound on the request's push (how Node's HTTP parser hands it body bytes). An accessor rather than a plain
 * property: once the body has ended, Next.js copies its own buffered stream's methods onto the request (push among
 * them), and the parser, still delivering the part past the limit, would then push into that ended stream.
 */
function bound(request, limit) {
  let push = request.push;
  let received = 0;
  let dropping = false;
  // From here (past the limit, or answered and closing) the parser's bytes are dropped, not handed on (an
  // IncomingMessage that ends before its parser is done would destroy its socket, as autoDestroy sees it aborted,
  // resetting the connection before the answer is written).
  const drop = () => {
    dropping = true;
    request._readableState.autoDestroy = false;
  };
  const bodyRead = lingerUntilRead(request, drop);
  const end = () => {
    drop();
    push.call(request, null);
  };
  function pushBounded(chunk, encoding) {
    // The message's end (null) means all of the body was read: the connection may close now (lingerUntilRead).
    if (chunk === null) bodyRead();
    // After the end, the parser still delivers the rest of the body: drop it, and keep it flowing (true).
    if (dropping) return true;
    if (chunk === null) return push.call(this, chunk);
    received += chunk.length;
    if (received <= limit) return push.call(this, chunk, encoding);
    push.call(this, chunk.subarray(0, chunk.length - (received - limit - 1)), encoding);
    end();
    return true;
  }
  Object.defineProperty(request, "push", {
    configurable: true,
    get: () => pushBounded,
    set: (replacement) => {
      push = replacement;
    },
  });
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) end();
}

const rules = rulesFromEnvironment();
if (rules) {
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function emitWithBodyLimit(event, ...args) {
      const request = args[0];
      if (event === "request" && request && request.headers) {
        const pathname = (request.url ?? "").split("?")[0];
        if (pathname === "/api" || pathname.startsWith("/api/")) {
          const limit = limitOf(rules, request.method ?? "GET", pathname);
          request.headers[limitHeader] = String(limit);
          bound(request, limit);
        }
      }
      return emit.call(this, event, ...args);
    };
  }
}
