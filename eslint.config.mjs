import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const root = import.meta.dirname;
const sources = ["**/*.{ts,tsx,mts,cts,js,jsx,mjs}"];
const tests = ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "test/**"];

/**
 * The layers (ARCHITECTURE.md): a folder says what its files may import. Paths are resolved (the `@/` alias through
 * the TypeScript resolver eslint-config-next sets up), so `@/db/x`, `../../db/x` and `db/x` are the same import.
 * Tests are exempt: an integration test of a route lives where its subject does and may import the route.
 */
const layers = [
  { target: "./lib", from: ["./db", "./server", "./components", "./app"], message: "lib/ is pure domain logic: it must not import db/, server/, components/ or app/." },
  { target: "./components", from: "./app", message: "components/ must not import app/ (routes): move what both need to lib/ or components/." },
  { target: "./components", from: "./db", except: ["./schema"], message: "components/ runs in the browser: of db/ it may import only db/schema (types, zod schemas, constants)." },
  { target: "./db", from: ["./server", "./app", "./components"], message: "db/ must not import server/, app/ or components/." },
  { target: "./server", from: ["./app", "./components"], message: "server/ must not import app/ or components/." },
  {
    // The faults data layer has one door: everything outside db/queries/faults/ imports its index.ts only.
    target: ["./app/**", "./components/**", "./server/**", "./scripts/**", "./lib/**", "./db/*.ts", "./db/schema/**", "./db/queries/*.ts"],
    from: "./db/queries/faults/*.ts",
    except: ["**/index.ts"],
    message: "import the faults data layer through db/queries/faults (its index.ts), not its internals.",
  },
];

/** lib/ runs anywhere (the CLI, Web Workers, tests): no React, no Next. */
const frameworks = ["react", "react-dom", "next", "next-intl"];

const fixedHeaderGrids = ["components/rank-tables/device-grid.tsx", "components/rank-tables/diff-list.tsx"];
const antdTable = { name: "antd", importNames: ["Table"], message: "Use Table from @/components/primitives/table." };
const nextLink = { name: "next/link", message: "Use Link from @/components/primitives/link." };

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: sources,
    ignores: tests,
    rules: {
      "import/no-restricted-paths": ["error", { basePath: root, zones: layers }],
      // Import cycles are checked by scripts/lint-cycles.ts (`npm run lint`), on one graph per run: as a rule here,
      // import/no-cycle walked the graph again for every file and was two thirds of the lint's time.
    },
  },
  {
    files: ["lib/**"],
    ignores: tests,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: frameworks.map((name) => ({ name, message: "lib/ is pure domain logic: no React, no Next." })),
          patterns: [{ group: frameworks.map((name) => `${name}/*`), message: "lib/ is pure domain logic: no React, no Next." }],
        },
      ],
    },
  },
  // Tables come from components/primitives/table.tsx: antd's Table measures the scrollbar on every mount, a forced
  // layout of the page (issue 21), which the primitive skips when the table has no fixed header. The editor's grids
  // have one (scroll.y, virtual) and need the measurement: they keep antd's Table. Links come from
  // components/primitives/link.tsx, without Next's prefetch of every link in view (issue 21). One rule's options per
  // file: a later block would replace an earlier one's.
  {
    files: ["app/**", "components/**"],
    ignores: ["components/primitives/table.tsx", "components/primitives/link.tsx", ...fixedHeaderGrids],
    rules: { "no-restricted-imports": ["error", { paths: [antdTable, nextLink] }] },
  },
  {
    files: fixedHeaderGrids,
    rules: { "no-restricted-imports": ["error", { paths: [nextLink] }] },
  },
  { ignores: [".next/**", ".next-*/**", "next-env.d.ts", ".data/**", "node_modules/**", "db/migrations/**", "test-results/**", "playwright-report/**"] },
];

export default config;
