import { git } from "./git.js";
import { looksLikeSecret } from "../secrets/sensitive.js";

/** The project's tracked files that look like secrets (`.env`, keys, credentials); empty when git cannot list them (no repository). */
export async function trackedSecretFiles(root: string): Promise<string[]> {
  const listed = await git(root, ["ls-files", "-z", "--", "."]);
  if (listed.exitCode !== 0) return [];
  return listed.stdout.split("\0").filter((f) => f && looksLikeSecret(f));
}

/**
 * The start-of-leg warning naming the project's tracked files that look like secrets, or none. yolo's file tools
 * refuse them and the sandbox hides them, but their content is in git's history: a command such as
 * `git show HEAD:.env | base32` reads it past every filter. yolo cannot close that; the user can, by removing them from
 * the repository (and rotating what they held).
 */
export async function trackedSecretsNotice(root: string): Promise<string[]> {
  const files = await trackedSecretFiles(root);
  if (!files.length) return [];
  const shown = files.length > 5 ? `${files.slice(0, 5).join(", ")} and ${files.length - 5} more` : files.join(", ");
  return [
    `Tracked files that look like secrets: ${shown}. They are in git's history, where the model can read them through git (yolo's file tools and sandbox hide only the files themselves); remove them from the repository and rotate what they hold (docs/security.md)`,
  ];
}
