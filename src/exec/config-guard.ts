import fs from "node:fs";
import path from "node:path";
import { isConfigPath } from "./exec-files.js";
import type { ProtectedPaths } from "./protected-paths.js";
import type { ConfigProtection } from "./settings.js";

/** A config file larger than this is not kept (yolo's config files are a few KiB). */
const MAX_KEPT_BYTES = 1024 * 1024;

/** yolo's config files as they were before a command: project-relative path → content and permission bits. */
export type ConfigSnapshot = Map<string, { content: Buffer; mode: number }>;

/**
 * The content of every config file the walk before a command found (yolo.config.*, .mcp.json, instruction files, the
 * agents folder's files). Inside the sandbox they are bound read-only; without it a command could change them, and
 * restoreConfigFiles puts them back.
 */
export function snapshotConfigFiles(root: string, guard: ProtectedPaths, config?: ConfigProtection): ConfigSnapshot {
  const kept: ConfigSnapshot = new Map();
  for (const rel of guard.execRels) {
    if (!isConfigPath(rel, config)) continue;
    try {
      const abs = path.join(root, rel);
      const stat = fs.lstatSync(abs);
      if (stat.isFile() && stat.size <= MAX_KEPT_BYTES) kept.set(rel, { content: fs.readFileSync(abs), mode: stat.mode & 0o777 });
    } catch {
      // gone since the walk: nothing to keep
    }
  }
  return kept;
}

/**
 * Puts back every kept config file a command changed, removed or replaced (by a link, say), and returns their paths
 * (POSIX) so the command's output can say so; `lost` those it could not put back (a folder above replaced by a link).
 * New config files are removed by removeNewExecFiles.
 */
export function restoreConfigFiles(root: string, kept: ConfigSnapshot): { restored: string[]; lost: string[] } {
  const restored: string[] = [];
  const lost: string[] = [];
  for (const [rel, { content, mode }] of kept) {
    const abs = path.join(root, rel);
    if (unchanged(abs, content)) continue;
    const shown = rel.split(path.sep).join("/");
    try {
      // Never through a link: a folder above it replaced by one would take the write outside the project.
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      if (fs.realpathSync(path.dirname(abs)) !== path.join(fs.realpathSync(root), path.dirname(rel))) throw new Error("a folder above it is a link");
      fs.rmSync(abs, { recursive: true, force: true });
      fs.writeFileSync(abs, content, { mode, flag: "wx" });
      restored.push(shown);
    } catch {
      lost.push(shown);
    }
  }
  return { restored, lost };
}

function unchanged(abs: string, content: Buffer): boolean {
  try {
    const stat = fs.lstatSync(abs);
    return stat.isFile() && stat.size === content.length && fs.readFileSync(abs).equals(content);
  } catch {
    return false;
  }
}
