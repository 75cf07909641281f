/** The keyboard shortcuts (models/keyboard.ts) on the window, for as long as a shell (App, ShareApp) is mounted. */
import { useEffect } from "preact/hooks";
import type { AppContext } from "../models/app-context";
import { SHORTCUTS, handleKey, type Shortcut } from "../models/keyboard";

export function useShortcuts(ctx: AppContext, shortcuts: Shortcut[] = SHORTCUTS): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      handleKey(ctx, event, shortcuts);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ctx, shortcuts]);
}
