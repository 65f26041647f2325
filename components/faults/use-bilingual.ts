"use client";

import { useLocale } from "next-intl";
import type { Bilingual } from "@/lib/faults/levels";

/** Picks the UI language's side of a text the domain keeps in both languages. */
export function useBilingual(): (text: Bilingual) => string {
  const locale = useLocale();
  return (text) => (locale === "zh-CN" ? text.zh : text.en);
}
