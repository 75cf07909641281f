/** Opens the audience view: a session (join code) and its listener on the address the presenter named. */
import type { ViewerRoutesDeps } from "./viewer-routes";
import { startAudienceListener, type AudienceListener } from "./listener";
import type { AudienceSocketLimits } from "../../config";
import { AudienceSession } from "./session";
import { audienceBindHost, audienceUrlHost } from "./lan-address";

export async function openAudience(
  opts: Omit<ViewerRoutesDeps, "session"> & { host: string; port: number; limits?: Partial<AudienceSocketLimits> },
): Promise<{ session: AudienceSession; listener: AudienceListener }> {
  const session = new AudienceSession();
  try {
    const host = audienceBindHost(opts.host);
    const listener = await startAudienceListener({ ...opts, host, urlHost: audienceUrlHost(host), session });
    opts.logger.info({ joinUrl: listener.joinUrl() }, "audience view open");
    return { session, listener };
  } catch (err) {
    throw new Error(
      `could not open the audience view on ${opts.host}:${opts.port} (AUDIENCE_HOST / AUDIENCE_PORT): ${(err as Error).message}`,
      { cause: err },
    );
  }
}
