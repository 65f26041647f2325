export const actorTypes = ["user", "token", "system", "anonymous"] as const;
export type ActorType = (typeof actorTypes)[number];
