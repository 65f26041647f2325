import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage } from "./locales";

describe("localeFromAcceptLanguage", () => {
  it.each([
    ["zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"],
    ["zh-TW", "zh-CN"],
    ["en-US,en;q=0.9", "en"],
    ["fr-FR,zh;q=0.5", "zh-CN"],
    ["en;q=0.4,zh-CN;q=0.6", "zh-CN"],
    ["de-DE", "en"],
    ["", "en"],
    [null, "en"],
    ["zh;q=0,en", "en"],
  ])("%s → %s", (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });
});
