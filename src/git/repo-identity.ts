import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { git } from "./git.js";

/**
 * Which repository a working copy is, so threads started in one checkout can be found and resumed from another:
 * the `origin` remote's URL normalised (scheme, credentials and `.git` dropped, `host:path` made `host/path`),
 * else the real path of the root. A clone of a local repository has that repository's path as its origin,
 * so it matches threads started there.
 */
export async function repoIdentity(root: string): Promise<string> {
  const r = await git(root, ["config", "--get", "remote.origin.url"]);
  return identityOf(r.exitCode === 0 ? r.stdout : null, root);
}

/** repoIdentity from the origin's URL when it was read already (null: no origin). */
export function identityOf(originUrl: string | null, root: string): string {
  const url = originUrl?.trim() ?? "";
  return url ? normaliseRemote(url, root) : realPath(root);
}

/** `git@github.com:org/x.git`, `https://user:token@github.com/org/x` and `ssh://git@github.com/org/x` → `github.com/org/x`. */
export function normaliseRemote(url: string, root: string): string {
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(url);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && scp && !isAbsolute(url)) return `${scp[1].toLowerCase()}/${stripGit(scp[2])}`;
  try {
    const u = new URL(url);
    if (u.protocol === "file:") return realPath(decodeURIComponent(u.pathname));
    return `${u.hostname.toLowerCase()}${u.port ? `:${u.port}` : ""}/${stripGit(u.pathname.replace(/^\/+/, ""))}`;
  } catch {
    // A local path, absolute or relative to the working copy.
    return realPath(resolve(root, url));
  }
}

function stripGit(path: string): string {
  return path.replace(/\/+$/, "").replace(/\.git$/, "");
}

function realPath(path: string): string {
  try {
    return stripGit(realpathSync(path));
  } catch {
    return stripGit(path);
  }
}
