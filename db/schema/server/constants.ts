export { serverModelNames, serverModels, type ServerModel } from "@/lib/inventory/vocabulary";

/** HCCL's reference: `server_id` is a string of at most 64 characters. */
export const serverIdMaxLength = 64;
