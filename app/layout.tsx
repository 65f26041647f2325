import { AntdRegistry } from "@ant-design/nextjs-registry";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AppProviders } from "@/components/providers/app-providers";
import { isTheme, themeCookie } from "@/components/providers/preferences";
import type { Locale } from "@/i18n/locales";
// antd's component styles as one static, cacheable file (the providers set zeroRuntime): see app-providers.tsx.
import "antd/dist/antd.css";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("app");
  return { title: { default: "Rankscope", template: "%s · Rankscope" }, description: t("tagline") };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = (await getLocale()) as Locale;
  const messages = await getMessages();
  const storedTheme = (await cookies()).get(themeCookie)?.value;
  const theme = isTheme(storedTheme) ? storedTheme : "light";
  return (
    <html lang={locale} data-theme={theme}>
      <body>
        <AntdRegistry>
          <NextIntlClientProvider locale={locale} messages={messages}>
            <AppProviders locale={locale} initialTheme={theme}>
              {children}
            </AppProviders>
          </NextIntlClientProvider>
        </AntdRegistry>
      </body>
    </html>
  );
}
