import { migrate } from "@/db/migrate";
import { seedDemoData } from "@/db/seed";
import { withDatabase } from "./database";

const seeded = await withDatabase(async (handle) => {
  await migrate(handle.pool);
  return seedDemoData(handle);
});
const { clusters, faults, cpuLayouts, jobs } = seeded;
console.log(
  `demo clusters created: ${clusters.created.join(", ") || "none"}; already present: ${clusters.skipped.join(", ") || "none"}; ` +
    `simulated fault events: ${faults || "none (already there)"}; CPU layouts: ${cpuLayouts || "none (already there)"}; demo jobs: ${jobs || "none (already there)"}`,
);
