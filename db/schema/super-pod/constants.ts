/** HCCL's reference allows user-defined super pod ids; keep them short enough to show in a graph label. */
export const superPodIdMaxLength = 64;
