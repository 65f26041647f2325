/** The demo accounts the e2e server is seeded with (db/seed.ts `demoAccounts`, listed in the README). */
export const accounts = {
  viewer: { username: "viewer", password: "viewer-demo-pass" },
  editor: { username: "editor", password: "editor-demo-pass" },
  admin: { username: "admin", password: "admin-demo-pass" },
} as const;
export type AccountRole = keyof typeof accounts;

export const storageStateOf = (role: AccountRole) => `e2e/.auth/${role}.json`;
export const signedOut = { cookies: [], origins: [] };
