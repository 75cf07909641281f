/** The keyboard shortcuts (keyboard.ts) on the window, for as long as a shell (App, ShareApp) is mounted. */
import { useEffect } from "preact/hooks";
import type { AppContext } from "../context";
import { handleKey } from "../keyboard";

export function useShortcuts(ctx: AppContext): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      handleKey(ctx, event);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ctx]);
}
