import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { isLocale, localeCookie, localeFromAcceptLanguage } from "./locales";

/** The chosen language (cookie) wins; otherwise the browser's Accept-Language decides. */
export default getRequestConfig(async () => {
  const chosen = (await cookies()).get(localeCookie)?.value;
  const locale = isLocale(chosen) ? chosen : localeFromAcceptLanguage((await headers()).get("accept-language"));
  return {
    locale,
    messages: (await import(`../messages/${locale}.json`)).default,
    timeZone: "UTC",
  };
});
