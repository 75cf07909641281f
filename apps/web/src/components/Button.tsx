/** The one button style of the app: default, primary, quiet or danger; optional keyboard hint. */
import type { ButtonHTMLAttributes, ComponentChildren } from "preact";
import s from "./Button.module.css";

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: "default" | "primary" | "quiet" | "danger";
  hint?: string;
  children: ComponentChildren;
}

export function Button({ variant = "default", hint, children, class: cls, ...rest }: Props) {
  return (
    <button type="button" class={`${s.button} ${s[variant]} ${cls ?? ""}`} {...rest}>
      {children}
      {hint ? <kbd class={s.hint}>{hint}</kbd> : null}
    </button>
  );
}
