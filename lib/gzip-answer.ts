/**
 * A large answer sent as a gzip file (`Content-Type: application/gzip`) to a client that asks for one with `Accept:
 * application/gzip`, instead of `Content-Encoding: gzip`: Next.js drops a Content-Encoding a route handler sets and
 * compresses the body itself for every response (node_modules/next/dist/server/send-response.js), but leaves a type
 * that is compressed already alone. So the server can compress a shared answer once for all its callers
 * (server/faults/read-cache.ts; a stored rank table's text is sent as stored the same way), and the client decodes it
 * (components/primitives/fetch-json.ts). A caller that does not ask gets the plain answer.
 */

/** What a client that decodes gzip asks with: the gzip file, else the plain JSON. */
export const gzipJsonAccept = "application/gzip, application/json;q=0.9";

/** The type of a gzip answer's content once decoded (`application/json`). */
export const decodedTypeHeader = "rankscope-decoded-type";

/** Whether an `Accept` header asks for a gzip file. */
export const acceptsGzip = (accept: string | null): boolean => /\bapplication\/gzip\b/i.test(accept ?? "");

/** Whether a `Content-Type` is a gzip file. */
export const isGzipType = (contentType: string | null): boolean => /^application\/gzip\b/i.test(contentType ?? "");
