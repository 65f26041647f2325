/** The fabric elements the inventory stores (lib/fabric/derive.ts builds them from a cluster's profile). */
export const fabricPlaneKinds = ["bus", "parameter"] as const;
export const fabricSwitchKinds = ["bus-switch", "node-chip"] as const;
export const fabricLinkKinds = ["uplink", "parameter"] as const;
