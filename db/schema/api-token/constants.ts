export { roles, type Role } from "@/lib/auth/roles";
export { tokenPrefix } from "@/lib/auth/tokens";
