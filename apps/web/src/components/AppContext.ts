/** Hands the app's models to components without threading them through every prop list. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { AppContext } from "../models/app-context";

export const AppCtx = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const ctx = useContext(AppCtx);
  if (!ctx) throw new Error("useApp() outside <App>: render components inside <App ctx={createAppContext(url)} />");
  return ctx;
}
