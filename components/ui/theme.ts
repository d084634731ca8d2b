/** The console's colour scheme: the system's, or one chosen and kept in a cookie for a year. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "weir-theme";

export const parseTheme = (value: string | undefined): Theme => (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
