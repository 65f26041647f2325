/** The cache key of the cluster list: filled by the console layout on the server, read by `useClusters`. */
export const clustersQueryKey = ["clusters"] as const;
