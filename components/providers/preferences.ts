export const themeCookie = "rankscope-theme";
export const themes = ["light", "dark"] as const;
export type ThemeName = (typeof themes)[number];

export function isTheme(value: string | undefined): value is ThemeName {
  return value === "light" || value === "dark";
}

/** Preferences live in cookies (a year) so the server renders the chosen language and theme on the first paint. */
export function rememberPreference(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`;
}
