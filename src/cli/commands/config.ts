import { ConfigError } from "../../errors.js";
import { configTrustStoreFile, hashedFiles, recordConfigTrust } from "../config-trust.js";
import { projectRoot } from "../project-root.js";

/**
 * `yolo config trust`: records that the user uses the project's yolo.config.* and .mcp.json as they are now, so
 * read-only commands (threads, show, chat, doctor, …) run them again after a change (see config-trust.ts).
 */
export async function configCommand(input: { cwd: string; action: string }): Promise<number> {
  if (input.action !== "trust") throw new ConfigError(`Unknown config action "${input.action}": use trust.`);
  const root = projectRoot(input.cwd);
  const { files, problems } = hashedFiles(root);
  // A config whose modules cannot be hashed stays refused by read-only commands: say so rather than claim trust.
  if (problems.length)
    throw new ConfigError(`Cannot trust the config of ${root}: ${problems.join("; ")}. Keep the modules it imports inside the project, then trust it again.`);
  recordConfigTrust(root, process.env);
  const what = files.length ? files.join(" and ") : "no yolo.config.* and no .mcp.json (a config that appears later needs trust again)";
  process.stdout.write(
    `Trusted ${what} for ${root}.\nRecorded in ${configTrustStoreFile(process.env)}. A later change needs \`yolo config trust\` (or a \`yolo run\`) again.\n`,
  );
  return 0;
}
