/**
 * Fabric rebuild speed (db/queries/fabric.ts `rebuildFabric`), on a throwaway embedded PostgreSQL: a generated
 * 1,024-server Atlas A3 cluster (32 super pods × 32 servers: 224 bus planes' worth of switches, 7,168 node chips,
 * 65,536 links) is created once (inventory + fabric), then its fabric is rebuilt in a transaction several times.
 * Prints medians with the machine's load; it never asserts timings.
 */
import os from "node:os";
import { rebuildFabric } from "@/db/queries/fabric-build";
import { insertCluster } from "@/db/queries/inventory";
import { largeA3Cluster } from "@/lib/topology/large-cluster";
import { withDemoDatabase } from "./demo-database";
import type { BenchSection } from "./index";
import { median } from "./percentiles";

const RUNS = 5;


export const fabricBench: BenchSection = {
  name: "fabric",
  description: "fabric rebuild of a 1,024-server A3 cluster (65,536 links)",
  async run() {
    await withDemoDatabase(2, async ({ handle }) => {
      const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
      let started = performance.now();
      const clusterId = await insertCluster(handle.db, largeA3Cluster(32, 32, "atlas-a3-fabric-bench"));
      console.log(`create cluster (inventory + fabric): ${(performance.now() - started).toFixed(0)} ms (load ${load()})`);
      const times: number[] = [];
      let counts = "";
      for (let i = 0; i < RUNS; i++) {
        started = performance.now();
        const build = await handle.db.transaction((tx) => rebuildFabric(tx, clusterId));
        times.push(performance.now() - started);
        counts = JSON.stringify(build.counts);
      }
      console.log(`rebuild fabric: median ${median(times).toFixed(0)} ms of ${RUNS} (${times.map((t) => t.toFixed(0)).join(", ")}) ${counts} (load ${load()})`);
    });
  },
};
