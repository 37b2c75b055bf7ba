import { execFileSync } from "node:child_process";
import { dirname } from "node:path";

/**
 * PATH with the interpreter pyenv's shims would pick put first, when python3 on PATH is a pyenv shim.
 *
 * A shim is a bash script that runs about a dozen more processes to choose a version: ~0.6 s of CPU for every
 * python3 or pytest start, against ~0.05 s for the interpreter itself, and the suite starts python hundreds of times
 * (gates, judges, toolchain tests). The shim's own choice, asked once here, is the same interpreter: the test
 * projects carry no `.python-version` to make it choose otherwise. The shims stay on PATH behind it for the rest.
 */
export function pathPastPyenvShims(env: NodeJS.ProcessEnv): { PATH?: string } {
  const path = env.PATH ?? "";
  if (!path.split(":").some((dir) => dir.endsWith("/.pyenv/shims"))) return {};
  try {
    const python = execFileSync("pyenv", ["which", "python3"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env }).trim();
    if (!python.startsWith("/") || python.startsWith("/usr/")) return {};
    return { PATH: `${dirname(python)}:${path}` };
  } catch {
    return {};
  }
}
