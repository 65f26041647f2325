import { migrate } from "@/db/migrate";
import { seedDemo } from "@/db/seed";
import { withDatabase } from "./database";

const result = await withDatabase(async ({ db, pool }) => {
  await migrate(pool);
  return seedDemo(db);
});
console.log(
  `demo clusters created: ${result.created.join(", ") || "none"}; already present: ${result.skipped.join(", ") || "none"}`,
);
