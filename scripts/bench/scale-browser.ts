import pg from "pg";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { benchUser, signIn, startApp } from "./bench-app";
import { type BrowserCase } from "./browser-topology";
import { median } from "./percentiles";
import { SCALE_JOB_NAME } from "./scale-views";

/* The scale bench's served app (./scale.ts): started on the run's database, searched over HTTP, its pages listed for Chromium. */

/** The app served on the run's database, with the bench user, started for the first cluster the browser opens. */
export async function appOn(url: string): Promise<{ base: string; pid: number; cookie: string; stop: () => void }> {
  const handle = connectDatabase(url, { max: 1 });
  try {
    await createUser(handle.db, { ...benchUser, role: "viewer" }, systemActor);
  } finally {
    await handle.pool.end();
  }
  const app = await startApp(url);
  return { ...app, cookie: await signIn(app.base) };
}

/**
 * The cluster's pages to open in Chromium: the cluster view, its middle super pod or row of racks, a rack (of that
 * pod or row) when it is drawn by rack, the middle server expanded 2 hops, and the job page of ./scale-usage.ts's job (the job over its scope's view,
 * with `?job=` when that view is aggregated). Ids come from the API's own answers.
 */
export async function browserCases(url: string, app: { base: string; cookie: string }, slug: string): Promise<BrowserCase[]> {
  const view = async (query: string) => {
    const response = await fetch(`${app.base}/api/v1/clusters/${slug}/topology?${query}`, { headers: { cookie: app.cookie } });
    if (!response.ok) throw new Error(`topology?${query} answered ${response.status}`);
    return ((await response.json()) as { nodes: { id: string; kind: string }[] }).nodes;
  };
  const middleOf = (nodes: { id: string; kind: string }[], kind: string) => {
    const list = nodes.filter((node) => node.kind === kind);
    return list[Math.floor(list.length / 2)]?.id;
  };
  const page = (query: string) => `/topology?cluster=${slug}${query}`;
  const cases: BrowserCase[] = [{ label: "cluster", path: page("") }];
  const cluster = await view("level=cluster");
  const pod = middleOf(cluster, "superpod");
  const row = middleOf(cluster, "row");
  let rack = middleOf(cluster, "rack");
  if (row) {
    cases.push({ label: "row", path: page(`&level=row&id=${encodeURIComponent(row)}`) });
    rack ??= middleOf(await view(`level=row&id=${encodeURIComponent(row)}`), "rack");
  }
  if (pod) {
    cases.push({ label: "superpod", path: page(`&level=superpod&id=${encodeURIComponent(pod)}`) });
    rack ??= middleOf(await view(`level=superpod&id=${encodeURIComponent(pod)}`), "rack");
  }
  if (rack) cases.push({ label: "rack", path: page(`&level=rack&id=${encodeURIComponent(rack)}`) });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The middle server's neighbourhood, 2 hops along every kind (lib/topology/neighbourhood.ts).
    const { rows: servers } = await client.query<{ server_id: string }>(
      `select s.server_id from servers s join clusters c on c.id = s.cluster_id where c.slug = $1
       order by s.position offset (select count(*) / 2 from servers s join clusters c on c.id = s.cluster_id where c.slug = $1) limit 1`,
      [slug],
    );
    if (servers[0]) cases.push({ label: "server 2 hops", path: page(`&level=server&id=${encodeURIComponent(servers[0].server_id)}&hops=2`) });
    const { rows } = await client.query<{ id: number }>("select j.id from jobs j join clusters c on c.id = j.cluster_id where c.slug = $1 and j.name = $2", [slug, SCALE_JOB_NAME]);
    if (rows[0]) cases.push({ label: "job page", path: `/jobs/${rows[0].id}` });
  } finally {
    await client.end();
  }
  return cases;
}
/**
 * Search over HTTP on the served app (`GET …/topology/search`, what the page's search box asks), each query a new one
 * so that no answer comes from the route's body cache: ranks spread over the cluster, then server ids. The first
 * request of the cluster builds the search index (lib/topology/search.ts).
 */
export async function timeSearch(app: { base: string; cookie: string }, slug: string, npus: number): Promise<{ first: number; median: number; max: number }> {
  const queries = [...Array.from({ length: 10 }, (_, i) => String(Math.floor(((i * 7 + 3) % 10) * (npus / 10) + i))), "rack1", "node1"];
  const times: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    const response = await fetch(`${app.base}/api/v1/clusters/${slug}/topology/search?q=${encodeURIComponent(q)}`, { headers: { cookie: app.cookie } });
    if (!response.ok) throw new Error(`search ${q} answered ${response.status}`);
    await response.text();
    times.push(performance.now() - started);
  }
  return { first: times[0]!, median: median(times.slice(1)), max: Math.max(...times.slice(1)) };
}
