"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, theme as antTheme } from "antd";
import enUS from "antd/locale/en_US";
import zhCN from "antd/locale/zh_CN";
import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import type { Locale } from "@/i18n/locales";
import { rememberPreference, themeCookie, type ThemeName } from "./preferences";

interface ThemeControl {
  theme: ThemeName;
  setTheme: (theme: ThemeName) => void;
}

const ThemeContext = createContext<ThemeControl | null>(null);

export function useThemeControl(): ThemeControl {
  const control = useContext(ThemeContext);
  if (!control) throw new Error("useThemeControl must be used inside AppProviders");
  return control;
}

/**
 * One token set for both themes; only the algorithm changes. zeroRuntime: antd's component styles come from its static
 * antd/dist/antd.css (app/layout.tsx) instead of being generated in JavaScript for every page: on the server into
 * every page's HTML (400 KB of the overview's 526 KB) and in the browser on a component's first render after hydration
 * (the topology die table's Table styles were 65 of a 147 ms task, issue 21). The theme's values (dark, compact, these
 * tokens) are still set at run time, as CSS variables, which antd.css reads.
 */
const sharedTokens = { colorPrimary: "#1668dc", borderRadius: 6, fontFamily: "var(--font-sans)" };

export function AppProviders({
  locale,
  initialTheme,
  children,
}: {
  locale: Locale;
  initialTheme: ThemeName;
  children: ReactNode;
}) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } }),
  );
  const [theme, setThemeState] = useState<ThemeName>(initialTheme);
  const control = useMemo<ThemeControl>(
    () => ({
      theme,
      setTheme: (next) => {
        rememberPreference(themeCookie, next);
        document.documentElement.dataset.theme = next;
        setThemeState(next);
      },
    }),
    [theme],
  );
  return (
    <ThemeContext.Provider value={control}>
      <QueryClientProvider client={queryClient}>
        <ConfigProvider
          locale={locale === "zh-CN" ? zhCN : enUS}
          theme={{
            zeroRuntime: true,
            token: sharedTokens,
            algorithm: theme === "dark" ? [antTheme.darkAlgorithm, antTheme.compactAlgorithm] : [antTheme.compactAlgorithm],
          }}
        >
          <AntApp>{children}</AntApp>
        </ConfigProvider>
      </QueryClientProvider>
    </ThemeContext.Provider>
  );
}
