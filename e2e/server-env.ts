/** What the e2e server's database is seeded with: the demo, the scale test's clusters and the demo accounts (scripts/serve.ts). */
export const e2eSeedEnv = { RANKSCOPE_SEED_DEMO: "1", RANKSCOPE_SEED_SCALE: "1", RANKSCOPE_DEMO_ACCOUNTS: "1" } as const;
