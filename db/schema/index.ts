export * from "./cluster/table";
export * from "./super-pod/table";
export * from "./server/table";
export * from "./npu/table";
export * from "./device/table";
export * from "./link/table";
