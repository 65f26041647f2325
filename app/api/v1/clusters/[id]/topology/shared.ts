import "server-only";
import { createHash } from "node:crypto";
import { NextResponse } from "next/server";
import type { ClusterHeader } from "@/lib/topology/inventory-index";

export type ClusterRouteContext = { params: Promise<{ id: string }> };

/** Every topology answer may be kept by the browser but must be revalidated: the ETag changes with the inventory. */
export const CACHE_CONTROL = "private, no-cache";

/** Derived from the cluster, its inventory revision and the normalised query: equal ETag, equal body. */
export function etagFor(cluster: ClusterHeader, route: string, query: Record<string, string | null | undefined>): string {
  const canonical = JSON.stringify([route, Object.entries(query).filter(([, v]) => v != null).sort(([a], [b]) => a.localeCompare(b))]);
  const digest = createHash("sha256").update(canonical).digest("base64url").slice(0, 16);
  return `"c${cluster.id}-r${cluster.inventoryRevision}-${digest}"`;
}

export function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/** Bodies already serialised, per ETag: a repeated view costs a revision lookup and nothing else. */
const bodies = new Map<string, string>();
const maxBodies = 64;

export async function cachedJson(request: Request, etag: string, build: () => unknown | Promise<unknown>): Promise<Response> {
  const headers = { etag, "cache-control": CACHE_CONTROL };
  if (notModified(request, etag)) return new NextResponse(null, { status: 304, headers });
  let body = bodies.get(etag);
  if (body === undefined) {
    body = JSON.stringify(await build());
    bodies.set(etag, body);
    while (bodies.size > maxBodies) bodies.delete(bodies.keys().next().value!);
  }
  return new NextResponse(body, { status: 200, headers: { ...headers, "content-type": "application/json" } });
}

/** The query string as an object, for zod. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
