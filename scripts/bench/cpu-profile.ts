/**
 * A V8 CPU profile (.cpuprofile, from node --cpu-prof) summed up: where the busy time went, by part (garbage
 * collection, Next.js, node-postgres, the app's own compiled chunks, Node's internals) and the busiest functions.
 * Built code is minified, so the parts say more than the function names.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function part(url: string, name: string): string {
  if (name === "(garbage collector)") return "garbage collection";
  if (name === "(program)") return "V8 and native (program)";
  if (!url) return name || "(native)";
  if (url.startsWith("node:")) return "Node.js internals (streams, http, …)";
  if (/node_modules\/next\//.test(url)) return "Next.js runtime";
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(url)) return "node-postgres";
  if (/node_modules\/([^/]+)/.test(url)) return `node_modules/${/node_modules\/([^/]+)/.exec(url)![1]}`;
  if (/\/server\/chunks\/|\/server\/app\//.test(url)) return "the app's compiled code (routes, db, lib, zod, drizzle, better-auth)";
  return path.basename(url);
}

/** Prints the share of busy samples per part and the top functions, over every profile in `dir`. */
export async function summarizeProfiles(dir: string, top = 12): Promise<void> {
  const byPart = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(await readFile(path.join(dir, file), "utf8")) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
      if (functionName === "(idle)") return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      busy += ms;
      const name = part(url, functionName);
      byPart.set(name, (byPart.get(name) ?? 0) + ms);
      const fn = `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    });
  }
  const share = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
  console.log(`CPU profile (${(busy / 1000).toFixed(1)} s busy in ${dir}), by part:`);
  for (const [name, ms] of [...byPart].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${share(ms).padStart(7)}  ${name}`);
  console.log("busiest functions (self time):");
  for (const [name, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${share(ms).padStart(7)}  ${name}`);
}
