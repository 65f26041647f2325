import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { isDatabaseUnavailable, toErrorResponse } from "./errors";

describe("toErrorResponse", () => {
  it("maps each domain error kind to its status, with its code and details", async () => {
    const response = toErrorResponse(new DomainError("conflict", "someone saved first", { code: "revision_conflict", details: { revision: 4 } }));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "revision_conflict", message: "someone saved first", details: { revision: 4 } } });
    expect(toErrorResponse(new DomainError("not_found", "no cluster x")).status).toBe(404);
    expect(toErrorResponse(new DomainError("invalid", "bad text")).status).toBe(422);
  });

  it("sends Retry-After when the domain error names one", () => {
    const response = toErrorResponse(new DomainError("too_many", "slow down", { retryAfterSeconds: 30 }));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("30");
  });

  it("answers 503 with Retry-After when a wrapped cause says the database is unreachable", async () => {
    const socketError = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const wrapped = new Error("Failed query: select 1", { cause: socketError });
    const response = toErrorResponse(wrapped);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await response.json()).error.code).toBe("database_unavailable");
  });
});

describe("isDatabaseUnavailable", () => {
  it("looks through causes and aggregate errors, not at unrelated codes", () => {
    const refused = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new AggregateError([new Error("a"), refused]))).toBe(true);
    expect(isDatabaseUnavailable(new Error("outer", { cause: new Error("middle", { cause: refused }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("unique"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });

  it("knows node-postgres's code-less errors for a connection lost mid-transaction", () => {
    // Seen by the fault-injection suite when PostgreSQL stopped between two statements of a fault batch.
    const lost = new Error("Client has encountered a connection error and is not queryable");
    expect(isDatabaseUnavailable(new Error("Failed query: select …", { cause: lost }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated by the user"))).toBe(false);
  });
});
