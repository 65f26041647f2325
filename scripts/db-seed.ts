import { migrate } from "@/db/migrate";
import { seedDemoFaults } from "@/db/queries/faults";
import { seedDemoJobs } from "@/db/queries/jobs-seed";
import { seedDemo } from "@/db/seed";
import { withDatabase } from "./database";

const { result, faults, jobs } = await withDatabase(async (handle) => {
  await migrate(handle.pool);
  const result = await seedDemo(handle.db);
  return { result, faults: await seedDemoFaults(handle), jobs: await seedDemoJobs(handle) };
});
console.log(
  `demo clusters created: ${result.created.join(", ") || "none"}; already present: ${result.skipped.join(", ") || "none"}; simulated fault events: ${faults || "none (already there)"}; demo jobs: ${jobs || "none (already there)"}`,
);
