import { describe, expect, it } from "vitest";
import { writeRankTable, type JsonValue } from "@/lib/rank-table";
import { WRITE_BATCH } from "@/lib/rank-table/write-parts";
import { rankTableBlob } from "./table-blob";

// More servers than one batch of the writer, so the Blob is made of several parts; names with a quote and a backslash
// so that escaping each part on its own is checked against escaping the whole text.
const table: JsonValue = {
  version: "1.0",
  server_count: String(WRITE_BATCH + 5),
  server_list: Array.from({ length: WRITE_BATCH + 5 }, (_, index) => ({ server_id: `10.0.${index >> 8}.${index & 255}`, note: `rack "${index}" \\ a` })),
  status: "completed",
};

describe("rankTableBlob", () => {
  it("is the canonical text, made of parts", async () => {
    expect(await rankTableBlob(table).text()).toBe(writeRankTable(table));
  });

  it("escaped as a JSON string's inside, parses back to the canonical text", async () => {
    expect(JSON.parse(`"${await rankTableBlob(table, true).text()}"`)).toBe(writeRankTable(table));
  });
});
