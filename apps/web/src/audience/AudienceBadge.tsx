/**
 * The presenter's audience panel (only when hopscope runs with `--audience`): how many follow, the
 * join URL with its QR code for the room, and ending (or reopening) the session.
 */
import { Button } from "../components/Button";
import type { PresenterAudienceModel } from "./PresenterAudienceModel";
import { QrCode } from "./QrCode";
import s from "./AudienceBadge.module.css";

export function AudienceBadge({ model }: { model: PresenterAudienceModel }) {
  const st = model.status.value;
  if (st.state === "off") return null;
  if (st.state === "ended") {
    return (
      <aside class={s.badge} data-testid="audience-badge" data-state="ended">
        <span>Audience session ended</span>
        <Button variant="quiet" onClick={() => void model.restart()} title="Open a new session with a new join code">
          New session
        </Button>
      </aside>
    );
  }
  return (
    <aside
      class={`${s.badge} ${model.qrOpen.value ? s.open : ""}`}
      data-testid="audience-badge"
      data-state="open"
      aria-label="Audience view"
    >
      <div class={s.row}>
        <Button
          variant="quiet"
          onClick={model.toggleQr}
          title="Show the join URL and QR code for the room"
          data-testid="audience-toggle"
        >
          Audience · <b data-testid="audience-viewers">{st.viewers}</b> following
        </Button>
        <Button
          variant="quiet"
          onClick={() => void model.end()}
          title="Disconnect every viewer and retire the join code"
          data-testid="audience-end"
        >
          End
        </Button>
      </div>
      {model.qrOpen.value ? (
        <div class={s.join}>
          <QrCode text={st.joinUrl} label={`QR code for ${st.joinUrl}`} />
          <code class={s.url} data-testid="audience-url">
            {st.joinUrl}
          </code>
        </div>
      ) : null}
      {st.wrongCodes.refused > 0 ? (
        <p class={s.warn} role="status" data-testid="audience-wrong-codes">
          {st.wrongCodes.refused} wrong join {st.wrongCodes.refused === 1 ? "code" : "codes"} refused
          {st.wrongCodes.blocked > 0
            ? ` · ${st.wrongCodes.blocked} ${st.wrongCodes.blocked === 1 ? "address" : "addresses"} blocked for a minute`
            : ""}
        </p>
      ) : null}
      {model.error.value ? (
        <p class={s.error} role="alert">
          {model.error.value}
        </p>
      ) : null}
    </aside>
  );
}
