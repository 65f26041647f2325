import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, unique } from "drizzle-orm/pg-core";
import { servers } from "../server/table";

export const npus = pgTable(
  "npus",
  {
    id: serial("id").primaryKey(),
    serverRef: integer("server_ref")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    npuIndex: integer("npu_index").notNull(),
  },
  (t) => [
    unique("npus_server_index").on(t.serverRef, t.npuIndex),
    unique("npus_server_id").on(t.serverRef, t.id),
    // An A5 AI Server's NPUs are numbered by local_id, [0, 64] (HCCL's A5 reference).
    check("npus_index_range", sql`${t.npuIndex} between 0 and 64`),
  ],
);
