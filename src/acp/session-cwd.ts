import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";

/**
 * The folder a session works in, checked when the session opens: ACP requires an absolute path, and a folder that is
 * missing or a file would only fail later, at the first prompt, as a spawn error that names neither. Throws an
 * invalid-params error (-32602) that says what is wrong with it.
 */
export function sessionCwd(cwd: unknown): string {
  const refuse = (why: string) => RequestError.invalidParams({ cwd }, `cwd ${JSON.stringify(cwd)} ${why}; give the absolute path of the project's folder`);
  if (typeof cwd !== "string" || cwd === "") throw refuse("is missing");
  if (!isAbsolute(cwd)) throw refuse("is not an absolute path");
  let folder: boolean;
  try {
    folder = statSync(cwd).isDirectory();
  } catch (error) {
    throw refuse((error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`);
  }
  if (!folder) throw refuse("is not a folder");
  return cwd;
}
