import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generateFromTemplate, writeRankTable } from "@/lib/rank-table";
import { toConfigMap, toJobName } from "./configmap";

describe("ConfigMap export", () => {
  it("names it rings-config-<job>, labels it for the ring controller and keeps the canonical text under hccl.json", () => {
    const text = writeRankTable(generateFromTemplate({ serversPerSuperPod: 2 }));
    const yaml = toConfigMap(text, { job: "Llama Pretrain/7B", namespace: "training" });
    const object = parse(yaml) as { apiVersion: string; kind: string; metadata: { name: string; namespace: string; labels: Record<string, string> }; data: Record<string, string> };
    expect(object.apiVersion).toBe("v1");
    expect(object.kind).toBe("ConfigMap");
    expect(object.metadata).toEqual({ name: "rings-config-llama-pretrain-7b", namespace: "training", labels: { "ring-controller.atlas": "ascend-910" } });
    expect(object.data["hccl.json"]).toBe(text);
    expect(yaml).toContain("hccl.json: |");
  });

  it("makes valid names out of anything", () => {
    expect(toJobName("  --A__b  ")).toBe("a-b");
    expect(toJobName("中文")).toBe("job");
  });
});
