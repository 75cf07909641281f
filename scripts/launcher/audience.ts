/**
 * `npm start -- --audience [--audience-host ADDR]` (or AUDIENCE_HOST): the recorder opens its audience
 * view; the launcher prints the join URL with a QR code for the room to scan.
 */
import { renderUnicodeCompact } from "uqr";
import { AudienceStatusSchema } from "@hopscope/shared/trace/audience";
import type { LauncherConfig } from "./config";

/**
 * The address the audience view binds to, or null when it is off: `--audience-host ADDR` (`named`), else
 * AUDIENCE_HOST, else `auto` (the LAN address, chosen by the recorder) when `--audience` was given.
 */
export function audienceHost(
  flags: { audience: boolean; named: string | undefined },
  config: LauncherConfig,
): string | null {
  if (flags.named !== undefined) {
    if (!flags.named || flags.named.startsWith("--"))
      throw new Error("--audience-host needs an address, e.g. --audience-host 192.168.1.20");
    return flags.named;
  }
  if (config.AUDIENCE_HOST) return config.AUDIENCE_HOST;
  return flags.audience ? "auto" : null;
}

export async function printAudience(recorderUrl: string, say: (line: string) => void): Promise<void> {
  const res = await fetch(`${recorderUrl}/api/audience`);
  const status = AudienceStatusSchema.parse(await res.json());
  if (status.state !== "open") {
    say(`  ! the audience view is ${status.state}`);
    return;
  }
  say(`\n  Audience view (read-only, for the room): ${status.joinUrl}`);
  for (const line of renderUnicodeCompact(status.joinUrl).split("\n")) say(`    ${line}`);
  say("  Anyone with this URL can follow your screen; end the session from the Audience panel in the UI.");
}
