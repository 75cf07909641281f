/**
 * After a follow-the-data click: scroll the opened hop's detail to the followed value and mark it as the
 * current match. The detail renders (and may load its body) after the click, so this looks for a few frames.
 */
const TRIES = 40;

export function revealMatch(originPath?: string, tries = TRIES): void {
  requestAnimationFrame(() => {
    const panel =
      document.querySelector('[data-testid="hop-detail"] [role="tabpanel"]') ??
      document.querySelector('[data-testid="presenter-focus"]');
    const scope = originPath ? panel?.querySelector(`[data-path="${CSS.escape(originPath)}"]`) : null;
    const mark = (scope ?? panel)?.querySelector("mark");
    if (!mark) {
      if (tries > 0) setTimeout(() => revealMatch(originPath, tries - 1), 50);
      return;
    }
    document.querySelectorAll("mark[data-current]").forEach((m) => m.removeAttribute("data-current"));
    mark.setAttribute("data-current", "");
    mark.scrollIntoView({ block: "center", inline: "nearest" });
  });
}

/** After a click on the notes-file step: scroll the hop's file diff into view and mark it and the lane's mark. */
export function revealNotesChange(hop: number, tries = TRIES): void {
  requestAnimationFrame(() => {
    const change = document.querySelector(
      '[data-testid="hop-detail"] [data-testid="notes-change"], [data-testid="presenter"] [data-testid="notes-change"]',
    );
    if (!change) {
      if (tries > 0) setTimeout(() => revealNotesChange(hop, tries - 1), 50);
      return;
    }
    document.querySelectorAll("[data-current]").forEach((m) => m.removeAttribute("data-current"));
    change.setAttribute("data-current", "");
    document.querySelector(`[data-testid="notes-mark"][data-mark-hop="${hop}"]`)?.setAttribute("data-current", "");
    change.scrollIntoView({ block: "nearest", inline: "nearest" });
  });
}
