/** `npm run -s hopscope -- unwrap --config <file> --server <name>`: undo `wrap --config` (see stdio/wrap-config-command.ts). */
import { wrapConfigCommand } from "./stdio/wrap-config-command";

const USAGE = `usage: npm run -s hopscope -- unwrap --config <host config .json> --server <name> [--force]

  Gives the server entry back the command it had before \`hopscope wrap --config\`: the file's exact bytes
  when nothing else changed in it since, else that entry only. When the wrapped entry itself was changed
  since (a version pinned in its args, another command), it refuses and says what changed; --force puts
  back the command from the backup anyway.
`;

export async function run(args: string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  return wrapConfigCommand("unwrap", args, USAGE);
}
