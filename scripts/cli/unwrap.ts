/** `npm run -s hopscope -- unwrap --config <file> --server <name>`: undo `wrap --config` (see stdio/wrap-config-command.ts). */
import { wrapConfigCommand } from "./stdio/wrap-config-command";

const USAGE = `usage: npm run -s hopscope -- unwrap --config <host config .json> --server <name>

  Gives the server entry back the command it had before \`hopscope wrap --config\`: the file's exact bytes
  when nothing else changed in it since, else that entry only.
`;

export async function run(args: string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(USAGE);
    return 0;
  }
  return wrapConfigCommand("unwrap", args, USAGE);
}
