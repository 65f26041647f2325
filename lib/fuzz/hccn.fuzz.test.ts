import fc from "fast-check";
import { describe, it } from "vitest";
import { generateFromHccn, parseHccnConf, validateRankTable, type JsonValue } from "../rank-table";
import { check, expectBoundedReport, hostileString, timeout } from "./shared";

describe("fuzzing hccn.conf (issue 13)", () => {
  it("hccn.conf: parsing and generating never throw", () => {
    const conf = fc.array(fc.oneof(fc.constantFrom("address_0=10.0.0.1", "address_1 = fd00::1", "netmask_0=255.255.255.0", "address_x=1"), hostileString), { maxLength: 20 });
    check(
      "hccn",
      fc.property(fc.array(fc.tuple(hostileString, conf), { maxLength: 5 }), (files) => {
        const servers = files.map(([serverId, lines]) => ({ serverId, hccnConf: lines.join("\n") }));
        for (const server of servers) parseHccnConf(server.hccnConf);
        expectBoundedReport(validateRankTable(generateFromHccn(servers, { version: files.length % 2 ? "1.2" : "1.0" }) as unknown as JsonValue));
      }),
    );
  }, timeout);
});
