/** Text with the followed value marked wherever it appears (text nodes and <mark>, never HTML). */
import { splitMatches } from "../models/highlight";
import { useApp } from "./AppContext";
import s from "./Highlighted.module.css";

export function Highlighted({ text }: { text: string }) {
  const { ui } = useApp();
  const query = ui.followOpen.value ? ui.followQuery.value : "";
  if (!query.trim()) return <>{text}</>;
  return (
    <>
      {splitMatches(text, query).map((p, i) =>
        p.match ? (
          <mark key={i} class={s.mark}>
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
