import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { testDatabase } from "@/test/database";
import { arrayLiteral } from "./pg-array";

describe("arrayLiteral", () => {
  it("reads back in PostgreSQL as the values it was made of: quotes, backslashes, braces, commas, NULL, unicode", async () => {
    const { pool } = testDatabase();
    const text = fc.oneof(fc.string({ unit: "grapheme" }).filter((s) => !s.includes("\u0000")), fc.constantFrom("NULL", "null", "", " ", "\\", '"', "{}", "a,b", '{"x":"y\\\\z"}'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text)), fc.array(fc.option(fc.integer())), async (texts, numbers) => {
        const { rows } = await pool.query<{ texts: (string | null)[]; numbers: (number | null)[] }>("select $1::text[] as texts, $2::int[] as numbers", [
          arrayLiteral(texts),
          arrayLiteral(numbers),
        ]);
        expect(rows[0]).toEqual({ texts, numbers });
      }),
      { numRuns: 200 },
    );
  });
});
