// Transpiles src/ to dist/ file by file (no bundling), so lazy `import()`s stay lazy
// and `yolo --version` never pays for LangGraph, LangChain or Ink. Type checking is `tsc --noEmit`.
import { build } from "esbuild";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: sources("src"),
  outdir: "dist",
  outbase: "src",
  format: "esm",
  platform: "node",
  target: "node20",
  jsx: "automatic",
  sourcemap: "linked",
  logLevel: "warning",
});
