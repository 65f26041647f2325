import "server-only";
import { NextResponse } from "next/server";
import { isLocale, localeFromAcceptLanguage, type Locale } from "@/i18n/locales";
import { escapeHtml } from "@/lib/html";
import en from "@/messages/en.json";
import zh from "@/messages/zh-CN.json";
import { databaseRetryAfterSeconds } from "./errors";

const catalogues: Record<Locale, typeof en.errors> = { en: en.errors, "zh-CN": zh.errors };

/**
 * The page a browser gets while the database is unreachable: 503 with Retry-After, in the reader's language, and
 * reloading itself (a meta refresh, no script) so the console comes back on its own when PostgreSQL does. A signed-in
 * user is not sent to the sign-in page just because their session cannot be read.
 */
export function databaseUnavailablePage(headers: Headers, cookieLocale: string | undefined): NextResponse {
  const locale = isLocale(cookieLocale) ? cookieLocale : localeFromAcceptLanguage(headers.get("accept-language"));
  const t = catalogues[locale];
  const seconds = databaseRetryAfterSeconds;
  const body = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${seconds}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t.databaseUnavailableTitle)} · Rankscope</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;color:#1f1f1f}h1{font-size:1.4rem}a{color:#1677ff}</style>
</head><body><h1>${escapeHtml(t.databaseUnavailableTitle)}</h1>
<p>${escapeHtml(t.databaseUnavailable.replace("{seconds}", String(seconds)))}</p>
<p><a href="">${escapeHtml(t.reloadNow)}</a></p></body></html>`;
  return new NextResponse(body, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "retry-after": String(seconds), "cache-control": "no-store" },
  });
}
