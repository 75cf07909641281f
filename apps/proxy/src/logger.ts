/** The recorder's logger: the shape every app shares (@hopscope/nodekit/logger), named for the recorder. */
import { stderrLogger as named } from "@hopscope/nodekit/logger";

export { silentLogger, type Logger } from "@hopscope/nodekit/logger";
export const stderrLogger = named("recorder");
