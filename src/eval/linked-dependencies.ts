import { mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * Gives the checkout at `dir` the project's installed dependencies (never copied): `node_modules` linked to the
 * project's. A link inside them that leads back into the project — the project as its own dependency (`"pkg": "."`),
 * an npm workspace's package, a `file:` dependency in the repository — would read the project's checkout instead of
 * this one's tree (or nothing, where the sandbox hides the project). When there is one, `node_modules` is a folder of
 * links instead: each entry to the project's, and each such link to the same place inside the checkout.
 */
export function linkInstalled(root: string, dir: string): void {
  const source = join(root, "node_modules");
  const target = join(dir, "node_modules");
  const project = realpathSync(root);
  if (!inward(project, source).length) {
    symlinkSync(source, target, "dir");
    return;
  }
  mirror(project, source, target, dir, 2);
}

// The entries of `folder` (and of its `@scope` folders) that are links resolving inside the project, outside its node_modules.
function inward(project: string, folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name.startsWith("@")) found.push(...inward(project, path));
    else if (entry.isSymbolicLink() && intoProject(project, path)) found.push(path);
  }
  return found;
}

// Whether the link at `path` resolves inside the project and not into its installed dependencies.
function intoProject(project: string, path: string): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  const rel = relative(project, real);
  const inside = rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
  return inside && rel !== "node_modules" && !rel.startsWith(`node_modules${sep}`);
}

// `target` as a folder mirroring `source`: links to its entries, inward links moved into `checkout`; `depth` for scopes.
function mirror(project: string, source: string, target: string, checkout: string, depth: number): void {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isSymbolicLink() && intoProject(project, from)) linkTo(join(checkout, relative(project, realpathSync(from))), to);
    else if (depth > 1 && entry.isDirectory() && entry.name.startsWith("@") && inward(project, from).length) mirror(project, from, to, checkout, depth - 1);
    else linkTo(from, to);
  }
}

// A relative link: the sandbox binds some entries read-only (`.bin`) where the checkout shows them, and bubblewrap
// resolves an absolute link's target outside the new root while it sets up (`Can't bind mount … No such file`).
function linkTo(target: string, link: string): void {
  symlinkSync(relative(dirname(link), target), link);
}
