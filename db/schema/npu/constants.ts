/** Atlas servers carry 8 NPUs; keep headroom for denser models without a migration. */
export const maxNpusPerServer = 16;
