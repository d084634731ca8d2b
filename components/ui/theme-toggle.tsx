"use client";
import { useState } from "react";
import { THEME_COOKIE, THEMES, type Theme } from "./theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

function applyTheme(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=31536000; samesite=lax`;
}

/** Switches the colour scheme at once (the html data-theme attribute) and keeps the choice in a cookie the server reads. */
export function ThemeToggle({ initial }: { initial: Theme }) {
  const [theme, setTheme] = useState<Theme>(initial);
  const choose = (next: Theme) => {
    setTheme(next);
    applyTheme(next);
  };
  return (
    <div className="theme-toggle" role="group" aria-label="Colour scheme">
      {THEMES.map((t) => (
        <button key={t} type="button" aria-pressed={theme === t} onClick={() => choose(t)}>
          {LABELS[t]}
        </button>
      ))}
    </div>
  );
}
