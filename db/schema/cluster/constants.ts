export { clusterModes, type ClusterMode } from "@/lib/inventory/vocabulary";

export const clusterSlugPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;
