import { afterAll, afterEach } from "vitest";

/*
 * Fails the test during which pg warned that a query went to a client already running one: queries sent at once on
 * one client or transaction (`Promise.all` on a `tx` or a `PoolClient`), which pg 9 will refuse. Node emits a
 * deprecation once per process, so only a file's first such query is caught; with it fixed, the next one shows.
 */
const overlap = "client is already executing a query";
const heard: Error[] = [];
process.on("warning", (warning) => {
  if (warning.name === "DeprecationWarning" && warning.message.includes(overlap)) heard.push(warning);
});

function failOnOverlap(): void {
  const warning = heard.splice(0)[0];
  if (warning) throw new Error(`pg: ${warning.message}\n${warning.stack ?? ""}`);
}
afterEach(failOnOverlap);
afterAll(failOnOverlap);
