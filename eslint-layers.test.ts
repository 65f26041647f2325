import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The layering rules of eslint.config.mjs (ARCHITECTURE.md) fire: wrong imports are linted as if they were written
 * in a file of the layer, through the project's own configuration and resolvers.
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const eslint = new ESLint({ cwd: root });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

// Generous: the first lint loads the parsers and resolvers, and CI shares 2 cores.
describe("layering lint rules", { timeout: 180_000 }, () => {
  it.each([
    ["lib/ → db/ through the alias", "lib/topology/layering-probe.ts", 'export { appDatabase } from "@/db/client";\n'],
    ["lib/ → db/ by a relative path", "lib/topology/layering-probe.ts", 'export { appDatabase } from "../../db/client";\n'],
    ["lib/ → server/", "lib/faults/layering-probe.ts", 'export { toErrorResponse } from "@/server/http/errors";\n'],
    ["lib/ → components/", "lib/layering-probe.ts", 'export { topologyKeys } from "@/components/topology/query-keys";\n'],
    ["lib/ → app/", "lib/layering-probe.ts", 'export { auditSearchParams } from "@/app/(console)/admin/audit/search-params";\n'],
    ["components/ → app/", "components/topology/layering-probe.ts", 'export { auditSearchParams } from "@/app/(console)/admin/audit/search-params";\n'],
    ["components/ → db/ outside db/schema", "components/topology/layering-probe.ts", 'export { appDatabase } from "@/db/client";\n'],
    ["db/ → server/", "db/queries/layering-probe.ts", 'export { toErrorResponse } from "@/server/http/errors";\n'],
    ["db/ → components/", "db/queries/layering-probe.ts", 'export { topologyKeys } from "@/components/topology/query-keys";\n'],
    ["server/ → app/", "server/http/layering-probe.ts", 'export { auditSearchParams } from "@/app/(console)/admin/audit/search-params";\n'],
    ["app/ → the faults layer's internals", "app/api/v1/layering-probe.ts", 'export { listTimeline } from "@/db/queries/faults/timeline";\n'],
    ["db/queries → the faults layer's internals", "db/queries/layering-probe.ts", 'export { listTimeline } from "./faults/timeline";\n'],
  ])("refuses %s", async (_name, file, code) => {
    expect(await ruleIds(file, code)).toContain("import/no-restricted-paths");
  });

  it.each([
    ["react", 'export { useState } from "react";\n'],
    ["next", 'export { notFound } from "next/navigation";\n'],
    ["next-intl", 'export { useTranslations } from "next-intl";\n'],
  ])("refuses %s in lib/", async (_name, code) => {
    expect(await ruleIds("lib/layering-probe.ts", code)).toContain("no-restricted-imports");
  });

  it("lets each layer import what it may", async () => {
    expect(await ruleIds("lib/layering-probe.ts", 'export { DomainError } from "@/lib/errors";\n')).toEqual([]);
    expect(await ruleIds("db/queries/layering-probe.ts", 'export { DomainError } from "@/lib/errors";\n')).toEqual([]);
    expect(await ruleIds("app/api/v1/layering-probe.ts", 'export { listTimeline } from "@/db/queries/faults";\n')).toEqual([]);
    expect(await ruleIds("db/queries/faults/layering-probe.ts", 'export { listTimeline } from "./timeline";\n')).toEqual([]);
    expect(await ruleIds("server/http/layering-probe.ts", 'export { appDatabase } from "@/db/client";\n')).toEqual([]);
    expect(await ruleIds("components/layering-probe.ts", 'export { topologyQuery } from "@/lib/topology/url";\n')).toEqual([]);
    expect(await ruleIds("components/layering-probe.ts", 'export { rankTableBodyLimit } from "@/db/schema/rank-table/constants";\n')).toEqual([]);
  });
});
