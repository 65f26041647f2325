import { describe, expect, it } from "vitest";
import { SharedAnswers } from "./shared-answers";

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe("SharedAnswers", () => {
  it("computes once for concurrent asks of the same key and revision", async () => {
    const answers = new SharedAnswers<number>();
    const gate = deferred<number>();
    let calls = 0;
    const compute = async () => (calls++, { value: await gate.promise, size: 1, maxAgeMs: 1000 });
    const asks = Array.from({ length: 10 }, () => answers.get("k", () => "r1", compute));
    gate.resolve(42);
    expect(await Promise.all(asks)).toEqual(Array(10).fill(42));
    expect(calls).toBe(1);
    // …and reuses the answer afterwards, while the revision holds.
    expect(await answers.get("k", () => "r1", compute)).toBe(42);
    expect(calls).toBe(1);
  });

  it("computes again for a new revision, and when the answer is older than its maximum age", async () => {
    let now = 0;
    const answers = new SharedAnswers<string>({ now: () => now });
    let calls = 0;
    const compute = (value: string) => async () => (calls++, { value, size: 1, maxAgeMs: 1000 });
    expect(await answers.get("k", () => "r1", compute("a"))).toBe("a");
    expect(await answers.get("k", () => "r2", compute("b"))).toBe("b");
    expect(calls).toBe(2);
    now = 999;
    expect(await answers.get("k", () => "r2", compute("c"))).toBe("b");
    now = 1000;
    expect(await answers.get("k", () => "r2", compute("d"))).toBe("d");
    expect(calls).toBe(3);
  });

  it("does not keep a failed computation, and gives its error to everyone who waited", async () => {
    const answers = new SharedAnswers<number>();
    const gate = deferred<number>();
    const failing = async () => ({ value: await gate.promise, size: 1, maxAgeMs: 1000 });
    const asks = [answers.get("k", () => "r", failing), answers.get("k", () => "r", failing)];
    gate.reject(new Error("boom"));
    for (const ask of asks) await expect(ask).rejects.toThrow("boom");
    expect(await answers.get("k", () => "r", async () => ({ value: 7, size: 1, maxAgeMs: 1000 }))).toBe(7);
  });

  it("runs one computation of a key at a time: callers for a newer revision wait for it, then share the next", async () => {
    let revision = "r1";
    const answers = new SharedAnswers<string>();
    const slow = deferred<string>();
    let calls = 0;
    const old = answers.get("k", () => revision, async () => (calls++, { value: await slow.promise, size: 1, maxAgeMs: 10_000 }));
    revision = "r2";
    const compute = async () => (calls++, { value: `computed at ${revision}`, size: 1, maxAgeMs: 10_000 });
    const waiting = [answers.get("k", () => revision, compute), answers.get("k", () => revision, compute)];
    revision = "r3";
    waiting.push(answers.get("k", () => revision, compute));
    expect(calls).toBe(1);
    slow.resolve("old");
    expect(await old).toBe("old");
    // One computation after the old one, started after every waiting caller asked: it reads what they asked for.
    expect(await Promise.all(waiting)).toEqual(Array(3).fill("computed at r3"));
    expect(calls).toBe(2);
    expect(await answers.get("k", () => revision, compute)).toBe("computed at r3");
    expect(calls).toBe(2);
  });

  it("drops the oldest answers past its size bound", async () => {
    const answers = new SharedAnswers<string>({ maxSize: 10 });
    let calls = 0;
    const compute = (value: string) => async () => (calls++, { value, size: 6, maxAgeMs: 10_000 });
    await answers.get("a", () => "r", compute("a"));
    await answers.get("b", () => "r", compute("b"));
    expect(await answers.get("b", () => "r", compute("b2"))).toBe("b");
    expect(await answers.get("a", () => "r", compute("a2"))).toBe("a2");
    expect(calls).toBe(3);
  });
});
