import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { completedA3Table, initializingTable, ringsConfigMap } from "./fixtures/rings-config";
import { isOlderVersion, parseRingsConfig } from "./rings-config";

describe("parseRingsConfig", () => {
  it("reads the ConfigMap the user creates: status initializing, a pending job", () => {
    const parsed = parseRingsConfig(ringsConfigMap({ job: "mindx-dls-test", namespace: "vcjob", table: initializingTable }));
    expect(parsed).toMatchObject({ job: "mindx-dls-test", namespace: "vcjob", status: "initializing", state: "pending", hasServers: false });
    expect(parsed.labels["ring-controller.atlas"]).toBe("ascend-910b");
  });

  it("reads the table the operator completed: a running job with its servers", () => {
    const table = completedA3Table([{ serverId: "10.0.0.1", devices: [{ id: 0, ip: "10.0.2.41" }] }]);
    const parsed = parseRingsConfig(ringsConfigMap({ job: "llama", table, version: "1732525200" }));
    expect(parsed).toMatchObject({ job: "llama", namespace: "default", status: "completed", state: "running", hasServers: true, version: "1732525200" });
    expect(JSON.parse(parsed.rankTableText)).toEqual(table);
  });

  it("falls back to resourceVersion when the operator's version key is 0 or absent", () => {
    const map = ringsConfigMap({ job: "a", table: initializingTable, resourceVersion: "99" });
    delete (map.data as Record<string, string>).version;
    expect(parseRingsConfig(map).version).toBe("99");
  });

  it.each([
    [[], "body"],
    [{ kind: "Secret", metadata: {}, data: {} }, "kind"],
    [{ metadata: { name: "mindx-dls-test" }, data: { "hccl.json": "{}" } }, "metadata.name"],
    [{ metadata: { name: "rings-config-a" } }, "data"],
    [{ metadata: { name: "rings-config-a" }, data: { "hccl.json": "{status" } }, "data.hccl.json"],
  ])("refuses %j, naming %s", (input, path) => {
    try {
      parseRingsConfig(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe("invalid_rings_config");
      expect((error as DomainError).details).toEqual({ path });
    }
  });

  it("compares the operator's decimal versions only", () => {
    expect(isOlderVersion("1732525100", "1732525200")).toBe(true);
    expect(isOlderVersion("1732525300", "1732525200")).toBe(false);
    expect(isOlderVersion("abc", "1")).toBe(false);
    expect(isOlderVersion(null, "1")).toBe(false);
  });
});
