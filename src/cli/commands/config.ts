import { relative } from "node:path";
import { ConfigError } from "../../errors.js";
import { configTrustStoreFile, recordConfigTrust } from "../../config/trust/config-trust.js";
import { projectRoot } from "../../config/project-root.js";

/**
 * `yolo config trust`: bundles the project's yolo.config.* with every module it reaches into the user's state folder
 * and records it, with .mcp.json's hash, as what every command of yolo runs in this project (see config-trust.ts).
 */
export async function configCommand(input: { cwd: string; action: string }): Promise<number> {
  if (input.action !== "trust") throw new ConfigError(`Unknown config action "${input.action}": use trust.`);
  const root = projectRoot(input.cwd);
  const trusted = await recordConfigTrust(root, process.env);
  const what = trusted.bundle
    ? `${trusted.inputs.map((f) => (relative(root, f).startsWith("..") ? f : relative(root, f))).join(", ")} (one bundle: ${trusted.bundle.file})`
    : "no yolo.config.* (a config that appears later needs trust again)";
  process.stdout.write(
    `Trusted ${what} for ${root}.\nRecorded in ${configTrustStoreFile(process.env, root)}. yolo runs this bundle until you trust a change with \`yolo config trust\` again.\n`,
  );
  return 0;
}
