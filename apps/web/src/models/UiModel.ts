/**
 * View state that is not about data: theme, presenter mode, the help overlay, the detail tab, and the
 * follow-the-data query. The chosen theme ("system" | "light" | "dark") is resolved here into the scheme
 * actually shown, `data-scheme` on <html>, so tokens.css writes the dark palette once; "system" follows
 * prefers-color-scheme, live.
 */
import { createModel, effect, signal } from "@preact/signals";

export type Theme = "system" | "light" | "dark";
export type DetailTab = "agent" | "wire" | "saw" | "wrote" | "diff" | "mcp" | "timing";

const THEME_KEY = "hopscope.theme";

function storedTheme(): Theme {
  const t = globalThis.localStorage?.getItem(THEME_KEY);
  return t === "light" || t === "dark" ? t : "system";
}

export const UiModel = createModel(() => {
  const theme = signal<Theme>(storedTheme());
  const presenter = signal(false);
  const helpOpen = signal(false);
  const tab = signal<DetailTab | null>(null);
  const followQuery = signal("");
  const followOpen = signal(false);
  /** Text the user selected in a hop's detail, offered as a value to follow. */
  const selection = signal<string | null>(null);

  const systemDark = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  const prefersDark = signal(systemDark?.matches ?? false);
  systemDark?.addEventListener("change", (e) => {
    prefersDark.value = e.matches;
  });
  effect(() => {
    const t = theme.value;
    document.documentElement.dataset.theme = t;
    document.documentElement.dataset.scheme = t === "dark" || (t === "system" && prefersDark.value) ? "dark" : "light";
    if (t === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, t);
  });
  effect(() => {
    document.documentElement.dataset.presenter = presenter.value ? "on" : "off";
  });

  function cycleTheme(): void {
    const dark = theme.value === "dark" || (theme.value === "system" && prefersDark.value);
    theme.value = dark ? "light" : "dark";
  }

  function follow(value: string): void {
    followQuery.value = value;
    followOpen.value = value.trim().length > 0;
    selection.value = null;
  }

  return { theme, presenter, helpOpen, tab, followQuery, followOpen, selection, cycleTheme, follow };
});
export type UiModel = InstanceType<typeof UiModel>;
