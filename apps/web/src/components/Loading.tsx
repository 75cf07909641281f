/** Renders a lazily loaded value: a spinner line while loading, the error (with its fix) on failure. */
import type { ComponentChildren } from "preact";
import type { Loadable } from "../models/TraceModel";
import s from "./Loading.module.css";

interface Props<T> {
  value: Loadable<T> | undefined;
  what: string;
  /** Offered as a "Try again" button when loading failed. */
  retry?: () => void;
  children: (value: T) => ComponentChildren;
}

export function Loading<T>({ value, what, retry, children }: Props<T>) {
  if (!value || value.status === "loading") return <p class={s.loading}>Loading {what}…</p>;
  if (value.status === "error") {
    return (
      <p class={s.error} role="alert">
        Could not load {what}: {value.message}
        {retry ? (
          <button type="button" class={s.retry} onClick={retry}>
            Try again
          </button>
        ) : null}
      </p>
    );
  }
  return <>{children(value.value)}</>;
}
