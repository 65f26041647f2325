import { describe, expect, it } from "vitest";
import { addHccnFile, hasHccnAddresses, hccnServerId } from "./hccn-files";

const conf = (last: number) => `address_0=192.168.${last}.10\nnetmask_0=255.255.255.0\naddress_1=192.168.${last}.11\n`;

describe("hccn.conf files of an import", () => {
  it("names the server after the file, without .conf or .hccn.conf", () => {
    expect(hccnServerId("node-1.conf")).toBe("node-1");
    expect(hccnServerId("node-1.hccn.conf")).toBe("node-1");
    expect(hccnServerId("node-1.HCCN.CONF")).toBe("node-1");
    expect(hccnServerId("node-1")).toBe("node-1");
  });

  it("keeps the order the files were chosen in, whatever order their reads finish", () => {
    let files = addHccnFile([], "node-2.conf", conf(2), 1);
    files = addHccnFile(files, "node-3.conf", conf(3), 2);
    files = addHccnFile(files, "node-1.conf", conf(1), 0);
    expect(files.map((file) => file.serverId)).toEqual(["node-1", "node-2", "node-3"]);
  });

  it("replaces a server's earlier file in its place, also when the second one is named .hccn.conf", () => {
    let files = addHccnFile([], "node-1.hccn.conf", conf(1), 0);
    files = addHccnFile(files, "node-2.conf", conf(2), 1);
    files = addHccnFile(files, "node-1.conf", conf(9), 2);
    expect(files.map((file) => [file.serverId, file.hccnConf])).toEqual([
      ["node-1", conf(9)],
      ["node-2", conf(2)],
    ]);
  });

  it("refuses a file without address lines", () => {
    expect(hasHccnAddresses(conf(1))).toBe(true);
    expect(hasHccnAddresses("netmask_0=255.255.255.0\n")).toBe(false);
  });
});
