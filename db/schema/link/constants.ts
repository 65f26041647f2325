export { linkKinds, type LinkKind } from "@/lib/inventory/vocabulary";
