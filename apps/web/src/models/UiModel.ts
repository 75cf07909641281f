/**
 * View state that is not about data: theme, presenter mode, zoom, the help overlay, the detail tab, and the
 * follow-the-data query. The chosen theme ("system" | "light" | "dark") is resolved here into the scheme
 * actually shown, `data-scheme` on <html>, so tokens.css writes the dark palette once; "system" follows
 * prefers-color-scheme, live.
 */
import { createModel, effect, signal } from "@preact/signals";

export type Theme = "system" | "light" | "dark";
export type DetailTab = "agent" | "wire" | "saw" | "budget" | "wrote" | "diff" | "mcp" | "timing";

const THEME_KEY = "hopscope.theme";
const ZOOM_KEY = "hopscope.zoom";
const LIST_KEY = "hopscope.listWidth";
/** The traces list's width in rem: resizable between these, by dragging its edge or with ← → on it. */
export const LIST_WIDTH = { min: 11, max: 36, initial: 17 } as const;
/** Zoom steps for the whole UI (every size is in rem, so scaling the root font scales everything). */
export const ZOOMS = [0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2] as const;

function storedZoom(): number {
  const z = Number(globalThis.localStorage?.getItem(ZOOM_KEY));
  return (ZOOMS as readonly number[]).includes(z) ? z : 1;
}

function storedTheme(): Theme {
  const t = globalThis.localStorage?.getItem(THEME_KEY);
  return t === "light" || t === "dark" ? t : "system";
}

export const UiModel = createModel(() => {
  const theme = signal<Theme>(storedTheme());
  const presenter = signal(false);
  const zoom = signal(storedZoom());
  const storedWidth = Number(globalThis.localStorage?.getItem(LIST_KEY));
  const listWidth = signal<number>(
    storedWidth >= LIST_WIDTH.min && storedWidth <= LIST_WIDTH.max ? storedWidth : LIST_WIDTH.initial,
  );
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

  effect(() => {
    document.documentElement.style.setProperty("--zoom", String(zoom.value));
    if (zoom.value === 1) localStorage.removeItem(ZOOM_KEY);
    else localStorage.setItem(ZOOM_KEY, String(zoom.value));
  });

  effect(() => {
    document.documentElement.style.setProperty("--list-w", `${listWidth.value}rem`);
    localStorage.setItem(LIST_KEY, String(listWidth.value));
  });

  function setListWidth(rem: number): void {
    listWidth.value = Math.round(Math.min(LIST_WIDTH.max, Math.max(LIST_WIDTH.min, rem)) * 4) / 4;
  }

  /** One zoom step in (+1) or out (−1); 0 resets to 100 %. */
  function zoomBy(delta: 1 | -1 | 0): void {
    const i = ZOOMS.indexOf(zoom.value as (typeof ZOOMS)[number]);
    zoom.value = delta === 0 ? 1 : (ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, (i < 0 ? 2 : i) + delta))] as number);
  }

  function cycleTheme(): void {
    const dark = theme.value === "dark" || (theme.value === "system" && prefersDark.value);
    theme.value = dark ? "light" : "dark";
  }

  function follow(value: string): void {
    followQuery.value = value;
    followOpen.value = value.trim().length > 0;
    selection.value = null;
  }

  return {
    theme,
    presenter,
    zoom,
    zoomBy,
    listWidth,
    setListWidth,
    helpOpen,
    tab,
    followQuery,
    followOpen,
    selection,
    cycleTheme,
    follow,
  };
});
export type UiModel = InstanceType<typeof UiModel>;
