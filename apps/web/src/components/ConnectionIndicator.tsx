/** The live feed's state, rendered exhaustively from the ConnectionModel's state machine. */
import type { ConnectionState } from "../models/ConnectionModel";
import { useApp } from "./AppContext";
import s from "./ConnectionIndicator.module.css";

function describe(c: ConnectionState): { label: string; tone: string; title: string } {
  switch (c.state) {
    case "connecting":
      return { label: "connecting", tone: s.wait ?? "", title: "Opening the live feed to the recorder…" };
    case "live":
      return { label: "live", tone: s.live ?? "", title: "Receiving hops as they happen" };
    case "reconnecting":
      return {
        label: `reconnecting (${c.attempt})`,
        tone: s.wait ?? "",
        title: `Lost the live feed; retrying in ${Math.round(c.retryInMs / 100) / 10} s, then catching up on what was missed`,
      };
    case "offline":
      return { label: "offline", tone: s.off ?? "", title: c.message };
    default: {
      const never: never = c;
      throw new Error(`unknown connection state ${JSON.stringify(never)}`);
    }
  }
}

export function ConnectionIndicator() {
  const { connection } = useApp();
  const c = connection.status.value;
  const d = describe(c);
  return (
    <span class={s.wrap} data-testid="connection" data-state={c.state}>
      <span class={`${s.pill} ${d.tone}`} title={d.title} role="status">
        <span class={s.dot} />
        {d.label}
      </span>
      {connection.warning.value ? (
        <span class={s.warning} role="alert" title={connection.warning.value}>
          ⚠ feed
        </span>
      ) : null}
      {c.state === "offline" ? (
        <button type="button" class={s.retry} onClick={connection.retryNow} title={c.message}>
          Retry
        </button>
      ) : null}
    </span>
  );
}
