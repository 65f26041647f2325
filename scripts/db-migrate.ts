import { migrate } from "@/db/migrate";
import { withDatabase } from "./database";

const applied = await withDatabase(async ({ pool }) => migrate(pool));
console.log(applied.length ? `applied: ${applied.join(", ")}` : "the database schema is up to date");
