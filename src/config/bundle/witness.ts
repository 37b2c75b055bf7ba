import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../../fs/real-path.js";

// Whether a bundle made now would be the trusted one, without making it (esbuild costs more than the rest of a
// read-only command): the files esbuild read and the folders it looked in, by inode, size and change time. Any write,
// rename, new file or new link in them changes a change time, which no one but the kernel sets. Same stats: the same
// bundle. Another stat: yolo makes the bundle again and compares (trust.ts). Nothing rests on this for safety: yolo
// runs only the trusted bundle, so a change missed here runs what the user trusted, never what the tree holds.

/** Path → `ino:size:ctime` (nanoseconds), or `-` for a path that does not exist. */
export type Witnesses = Record<string, string>;

// Beside each folder esbuild walks up through: what it reads there to resolve (packages, package.json imports and
// exports, tsconfig paths, Yarn's map).
const BESIDE = ["node_modules", "package.json", "tsconfig.json", "jsconfig.json", ".pnp.cjs"];

/**
 * The stats of the bundle's inputs, of `extra` (the config as named, a link maybe), of the folders above them, and of
 * what resolution reads beside each of those folders. The folders above the project `root` are left out themselves
 * (`/tmp`, the home folder: they change all day, and a new file there shadows nothing) but not what is beside them.
 */
export function takeWitnesses(root: string, inputs: readonly string[], extra: readonly string[]): Witnesses {
  const paths = new Set<string>([...extra, ...inputs]);
  const seen = new Set<string>();
  for (const file of [...extra, ...inputs]) {
    for (let dir = dirname(file); !seen.has(dir); dir = dirname(dir)) {
      seen.add(dir);
      if (dir === root || !isInside(root, dir)) paths.add(dir);
      for (const name of BESIDE) paths.add(join(dir, name));
      if (dirname(dir) === dir) break;
    }
  }
  const out: Witnesses = {};
  for (const path of [...paths].sort()) out[path] = statOf(path);
  return out;
}

/** True when every witness still has the stat it had. */
export function witnessesHold(witnesses: Witnesses): boolean {
  for (const [path, stat] of Object.entries(witnesses)) if (statOf(path) !== stat) return false;
  return true;
}

function statOf(path: string): string {
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.ctimeNs}` : "-";
}
