import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { chooseSandbox } from "../../../src/engine/run/facts.js";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import { resolveInside } from "../../../src/tools/paths.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// yolo's cache folder (`$XDG_CACHE_HOME/yolo`, by default ~/.cache/yolo) holds code yolo runs outside any sandbox:
// the light CLI's V8 code cache, the config's transpiled form, signed agent definitions. A project that contains it
// (the user's home directory as the project) must not let the model plant anything there: not with a command inside
// bubblewrap, not with the file tools.
const NEED = "running commands inside bubblewrap";
const probe = probeBwrap(process.env.PATH);

function configAt(root: string) {
  return resolveConfig({ root, fileConfig: {}, file: null, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }, flags: {} });
}

const run = (root: string, command: string, sandbox: Sandbox) =>
  runShell(command, { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH }, capBytes: 8192, sandbox });

describe("yolo's own cache folder inside the project", () => {
  it("a command in the sandbox cannot write (or first create) it; without the read-only bind it could (the control)", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    const home = tempDir(ctx.onTestFinished, "yolo-home-");
    // A cache folder set by XDG_CACHE_HOME inside the project: no name rule knows it, only the sandbox's bind.
    const cache = path.join(home, "xdg-cache", "yolo");
    const outsideCache = path.join(tempDir(ctx.onTestFinished, "yolo-cache-elsewhere-"), "yolo");
    const choice = chooseSandbox(configAt(home), { PATH: process.env.PATH }, [cache, outsideCache]);
    expect(choice.sandbox.kind).toBe("bwrap");
    if (choice.sandbox.kind !== "bwrap") return;
    // Created before any command runs, so the bind holds even when the user had no cache yet; one outside the project
    // needs no bind (the whole filesystem is read-only there).
    expect(choice.sandbox.readOnly).toEqual([cache]);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);

    const plant =
      "mkdir -p xdg-cache/yolo/code && echo forged > xdg-cache/yolo/code/threads.cache && echo planted || echo refused; echo ok > xdg-cache/other.txt";
    const guarded = await run(home, plant, choice.sandbox);
    expect(guarded.output).toContain("refused");
    expect(fs.existsSync(path.join(cache, "code", "threads.cache"))).toBe(false);
    // The rest of the project, the cache's parent included, stays writable.
    expect(fs.readFileSync(path.join(home, "xdg-cache", "other.txt"), "utf8")).toBe("ok\n");

    const open = await run(home, plant, { kind: "bwrap", binary: probe.available ? probe.binary : "bwrap" });
    expect(open.output).toContain("planted");
    expect(fs.readFileSync(path.join(cache, "code", "threads.cache"), "utf8")).toBe("forged\n");
  });

  it("the default place, .cache/yolo, is guarded by its name too: created up front, then neither written nor read", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    const home = tempDir(ctx.onTestFinished, "yolo-home-");
    const cache = path.join(home, ".cache", "yolo");
    const choice = chooseSandbox(configAt(home), { PATH: process.env.PATH }, [cache]);
    if (choice.sandbox.kind !== "bwrap") throw new Error("bwrap expected");
    fs.writeFileSync(path.join(cache, "key"), "0".repeat(64), { mode: 0o600 });
    const r = await run(
      home,
      "cat .cache/yolo/key || echo unreadable; echo forged > .cache/yolo/key || echo refused; echo ok > .cache/other.txt",
      choice.sandbox,
    );
    expect(r.output).not.toContain("0000");
    expect(r.output).toContain("refused");
    expect(fs.readFileSync(path.join(cache, "key"), "utf8")).toBe("0".repeat(64));
    expect(fs.readFileSync(path.join(home, ".cache", "other.txt"), "utf8")).toBe("ok\n");
  });

  it("the file tools refuse .cache/yolo in any spelling the filesystem may fold, and allow the rest of .cache", ({ onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-home-");
    for (const p of [".cache/yolo/code/threads.cache", ".cache/yolo", ".CACHE/Yolo./agents/key", "./.cache//yolo/x", "@project/.cache/yolo/jiti/x.cjs"]) {
      const r = resolveInside(root, p);
      expect(r.ok, p).toBe(false);
      if (!r.ok) expect(r.reason).toContain(".cache/yolo");
    }
    expect(resolveInside(root, ".cache/other/file").ok).toBe(true);
    expect(resolveInside(root, "src/yolo/.cache").ok).toBe(true);
  });
});
