// Transpiles src/ to dist/ file by file (no bundling), so lazy `import()`s stay lazy
// and `yolo --version` never pays for LangGraph, LangChain or Ink. Type checking is `tsc --noEmit`.
import { build } from "esbuild";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

// Built beside dist/ and swapped in with two renames, so a test reading dist/ while someone rebuilds never
// finds it half-written or gone for the length of a build.
const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
await build({
  entryPoints: sources("src"),
  outdir: next,
  outbase: "src",
  format: "esm",
  platform: "node",
  target: "node20",
  jsx: "automatic",
  sourcemap: "linked",
  logLevel: "warning",
});
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });
