/**
 * The hostile bodies and queries of `npm run test:hostile` (issue 13): what an attacker or a broken client sends.
 * Each is built once; `bodyLimit` is the endpoint's own limit, so over-limit bodies are just past it.
 */
export interface Attack {
  name: string;
  /** Extra query string (already encoded), e.g. "action=%00". */
  query?: string;
  headers?: Record<string, string>;
  /** The body, sent with Content-Length; or chunks sent with Transfer-Encoding: chunked (no Content-Length). */
  body?: Buffer;
  chunked?: Buffer[];
}

const json = { "content-type": "application/json" };

const deepArrays = (levels: number) => Buffer.from(`${"[".repeat(levels)}${"]".repeat(levels)}`);
const deepObjects = (levels: number) => Buffer.from(`${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`);
/** `[0,0,…]` of about `bytes` bytes. */
const zeros = (bytes: number) => `[${new Array(Math.max(1, Math.floor(bytes / 2))).fill("0").join(",")}]`;
/** Every field name the API's bodies use, each holding the same hostile value. */
const fields = ["name", "text", "cluster", "kind", "message", "raw", "username", "password", "role", "comment", "clusterId", "job", "namespace", "escalation", "retentionDays", "expectedRevision", "expiresAt", "disabled"];
const everyField = (value: unknown) => JSON.stringify(Object.fromEntries(fields.map((field) => [field, value])));

export function bodyAttacks(bodyLimit: number): Attack[] {
  // Just under the limit, so the body is parsed (deep nesting of 30,000 levels fits in 64 KB).
  const under = Math.min(bodyLimit, 64 * 1024) - 1024;
  const attacks: Attack[] = [
    { name: "deep arrays", headers: json, body: deepArrays(Math.floor(under / 2)) },
    { name: "deep objects", headers: json, body: deepObjects(Math.floor(under / 6)) },
    { name: "deep value in every field", headers: json, body: Buffer.from(everyField("DEEP").replace(/"DEEP"/g, () => deepObjects(300).toString())) },
    { name: "huge array of zeros", headers: json, body: Buffer.from(zeros(under)) },
    { name: "array of zeros in every field", headers: json, body: Buffer.from(everyField(0).replace(/:0/g, () => `:${zeros(2048)}`)) },
    { name: "NUL in every field", headers: json, body: Buffer.from(everyField("a\u0000b")) },
    { name: "lone surrogate in every field", headers: json, body: Buffer.from(everyField("a\ud800b")) },
    { name: "NUL in a batch item", headers: json, body: Buffer.from(JSON.stringify([JSON.parse(everyField("x\u0000"))])) },
    { name: "invalid UTF-8", headers: json, body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80, 0xff, 0xfe]), Buffer.from('"}')]) },
    { name: "broken JSON", headers: json, body: Buffer.from('{"name": "x",') },
    { name: "empty body", headers: json, body: Buffer.alloc(0) },
    { name: "over the limit", headers: json, body: Buffer.alloc(bodyLimit + 1, 0x20) },
    { name: "over the limit, chunked", headers: json, chunked: chunksOf(bodyLimit + 64 * 1024) },
    { name: "chunked deep arrays", headers: json, chunked: [deepArrays(10_000)] },
    { name: "text/plain", headers: { "content-type": "text/plain" }, body: Buffer.from(everyField("x")) },
    { name: "form", headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from("name=x&text=y") },
    { name: "multipart", headers: { "content-type": "multipart/form-data; boundary=b" }, body: Buffer.from('--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n') },
    { name: "no content type", body: Buffer.from(everyField("x")) },
  ];
  return attacks;
}

/** Query-string attacks, for every method. */
export function queryAttacks(): Attack[] {
  const parameters = ["cluster", "action", "actor", "target", "code", "q", "from", "to", "level", "kind", "format", "revision", "lang", "limit", "id", "field"];
  const every = (value: string) => parameters.map((parameter) => `${parameter}=${value}`).join("&");
  return [
    { name: "NUL in every parameter", query: every("%00") },
    { name: "encoded lone surrogate in every parameter", query: every("%ED%A0%80") },
    { name: "huge parameter", query: `cluster=${"a".repeat(6000)}&q=${"b".repeat(6000)}` },
    { name: "repeated parameters", query: new Array(500).fill("kind=roce-link-down").join("&") },
  ];
}

/** `size` spaces in 64 KB chunks: a body without Content-Length, so the limit can only be found while reading. */
function chunksOf(size: number): Buffer[] {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Array(Math.ceil(size / chunk.length)).fill(chunk);
}

/** The rank-table probe of issue 13: three million zeros where servers belong (6 MB). */
export function zerosTable(count = 3_000_000): Buffer {
  return Buffer.from(`{"version":"1.0","server_list":[${new Array(count).fill("0").join(",")}]}`);
}
