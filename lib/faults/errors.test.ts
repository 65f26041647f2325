import { describe, expect, it } from "vitest";
import { z } from "zod";
import en from "@/messages/en.json";
import zh from "@/messages/zh-CN.json";
import { englishMessage, englishTemplates, faultProblem, zodIssueProblem } from "./errors";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("fault problem vocabulary", () => {
  it.each([
    ["en", en.faults.errors],
    ["zh-CN", zh.faults.errors],
  ])("every reason has a %s message with the English template's arguments", (_, messages: Record<string, string>) => {
    for (const [reason, template] of Object.entries(englishTemplates)) {
      expect(messages[reason], reason).toBeTypeOf("string");
      expect(placeholders(messages[reason]!), reason).toEqual(placeholders(template));
    }
    expect(Object.keys(messages).sort()).toEqual(Object.keys(englishTemplates).sort());
  });

  it("fills the English message from the params, leaving unknown placeholders visible", () => {
    expect(englishMessage("unknown_die", { server: "sp0-node01", die: 9 })).toBe("server sp0-node01 has no die with device id 9");
    expect(englishMessage("unknown_npu", { server: "x" })).toBe("server x has no NPU {npu}");
    expect(faultProblem("unknown_server", { server: "nowhere" }, { code: "unknown_target", path: "target.server" })).toEqual({
      code: "unknown_target",
      reason: "unknown_server",
      params: { server: "nowhere" },
      message: "server nowhere is not in this cluster",
      path: "target.server",
    });
  });

  it("turns zod issues into reasons with their limits, keeping zod's English message", () => {
    const schema = z.object({ kind: z.enum(["a", "b"]), n: z.number().int().max(600), m: z.number().min(1), when: z.iso.datetime() }).strict();
    const result = schema.safeParse({ kind: "c", n: 601, m: 0, when: "yesterday", extra: 1 });
    const problems = result.error!.issues.map((issue) => zodIssueProblem(issue));
    expect(problems.map((p) => [p.reason, p.params])).toEqual(
      expect.arrayContaining([
        ["invalid_value", { path: "kind", options: "a, b" }],
        ["too_big", { path: "n", limit: "600" }],
        ["too_small", { path: "m", limit: "1" }],
        ["invalid_format", { path: "when", format: "datetime" }],
        ["unrecognized_keys", { path: "body", keys: "extra" }],
      ]),
    );
    expect(problems.every((p) => p.code === "invalid_event" && p.message.length > 0)).toBe(true);
  });

  it("takes a custom issue's reason from its params, and falls back to its text", () => {
    const schema = z.object({ a: z.number() }).superRefine((_, ctx) => {
      ctx.addIssue({ code: "custom", path: ["beganAt"], message: "a begin event needs beganAt", params: { reason: "began_at_required" } });
      ctx.addIssue({ code: "custom", path: ["x"], message: "something else" });
    });
    const [known, other] = schema.safeParse({ a: 1 }).error!.issues.map((issue) => zodIssueProblem(issue));
    expect(known).toMatchObject({ reason: "began_at_required", path: "beganAt", message: "a begin event needs beganAt" });
    expect(other).toMatchObject({ reason: "invalid_field", params: { path: "x", detail: "something else" } });
  });
});
