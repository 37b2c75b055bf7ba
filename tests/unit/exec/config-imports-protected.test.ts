import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configProtection } from "../../../src/engine/run/config-protection.js";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap } from "../../../src/exec/sandbox.js";
import { defaultPolicy } from "../../../src/tools/command-policy.js";
import { getTool } from "../../../src/tools/registry.js";
import type { ToolContext } from "../../../src/tools/types.js";

// What yolo.config.ts imports runs on the host when the next run, or `yolo resume`, loads the config: a run's
// commands must not change it, inside the sandbox or out, and the write tools refuse it, as they refuse the config.
const probe = probeBwrap(process.env.PATH);
const sandboxed = (probe.available ? it : it.skip) as typeof it;

const FILES: Record<string, string> = {
  "yolo.config.ts": `import { shared } from "./yolo.shared";\nimport preset from "@team/yolo-preset";\nexport default { ...preset, ...shared };\n`,
  "yolo.shared.ts": `export { gates as shared } from "./lib/gates";\n`,
  "lib/gates.ts": "export const gates = {};\n",
  "node_modules/@team/yolo-preset/index.js": "module.exports = {};\n",
  "node_modules/other/index.js": "module.exports = {};\n",
};
const GUARDED = ["yolo.shared.ts", "lib/gates.ts", "node_modules/@team/yolo-preset/index.js"];

function tempProject(onTestFinished: (fn: () => void) => void): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-cfgimports-")));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const ATTACK = [
  ...GUARDED.map((rel) => `echo 'require("child_process").execSync("id")' >> ${rel}`),
  "rm -rf node_modules/@team/yolo-preset lib",
  "echo 'module.exports = 1;' > node_modules/other/index.js",
  "echo done",
].join("; ");

describe("the modules and packages yolo.config.ts imports are protected like the config", () => {
  it("the run's protection names them (not a package the config does not import)", ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const protection = configProtection({ root, agentsDir: path.join(root, "agents") });
    for (const rel of ["agents", "lib/gates.ts", "node_modules/@team/yolo-preset", "yolo.shared.ts"]) expect(protection.dirs).toContain(rel);
    expect(protection.dirs.filter((d) => d.startsWith("node_modules/"))).toEqual(["node_modules/@team/yolo-preset"]);
    // A folder an import could resolve into is never protected whole: `lib` holds other code the run edits.
    expect(protection.dirs).not.toContain("lib");
  });

  it("a file that would shadow an import (`./lib/gates` → lib/gates.js before lib/gates.ts) is protected before it exists", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const config = configProtection({ root, agentsDir: path.join(root, "agents") });
    expect(config.dirs).toEqual(expect.arrayContaining(["lib/gates", "lib/gates.js", "lib/gates/index.ts", "yolo.shared.mjs"]));
    const r = await runShell('echo \'require("child_process").execSync("id")\' > lib/gates.js; echo done', {
      cwd: root,
      timeoutS: 20,
      env: { PATH: process.env.PATH ?? "" },
      capBytes: 20_000,
      sandbox: probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" },
      config,
    });
    expect(r.output).toContain("done");
    expect(fs.existsSync(path.join(root, "lib/gates.js"))).toBe(false);
    expect(r.output).toMatch(/yolo removed `lib\/gates\.js`/);
  });

  sandboxed("inside the sandbox a command changes none of them; other packages stay writable", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const config = configProtection({ root, agentsDir: path.join(root, "agents") });
    const sandbox = { kind: "bwrap" as const, binary: probe.available ? probe.binary : "" };
    const r = await runShell(ATTACK, { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH ?? "" }, capBytes: 20_000, sandbox, config });
    expect(r.output).toContain("done");
    for (const rel of GUARDED) expect(fs.readFileSync(path.join(root, rel), "utf8"), rel).toBe(FILES[rel]);
    // The control: node_modules is writable where the config imports nothing.
    expect(fs.readFileSync(path.join(root, "node_modules/other/index.js"), "utf8")).toBe("module.exports = 1;\n");
  });

  it("without the sandbox the config's modules are put back; the write tools refuse them", async ({ onTestFinished }) => {
    const root = tempProject(onTestFinished);
    const config = configProtection({ root, agentsDir: path.join(root, "agents") });
    const r = await runShell("echo evil >> yolo.shared.ts; echo evil >> lib/gates.ts; echo done", {
      cwd: root,
      timeoutS: 20,
      env: { PATH: process.env.PATH ?? "" },
      capBytes: 20_000,
      sandbox: { kind: "none" },
      config,
    });
    expect(r.output).toMatch(/yolo restored .*`yolo\.shared\.ts`/);
    for (const rel of ["yolo.shared.ts", "lib/gates.ts"]) expect(fs.readFileSync(path.join(root, rel), "utf8"), rel).toBe(FILES[rel]);
    const ctx: ToolContext = {
      root,
      commandTimeoutS: 10,
      outputCapBytes: 4096,
      readCapBytes: 4096,
      env: {},
      secretEnvNames: [],
      commands: { policy: defaultPolicy(), envAllow: null, sandbox: { kind: "none" }, config },
    };
    const write = getTool("write_file")!;
    for (const rel of ["yolo.shared.ts", "lib/gates.ts", "lib/gates.js", "yolo.shared/index.ts"]) {
      const out = await write.run(write.schema.parse({ path: rel, content: "evil\n" }), ctx);
      expect(out.ok, rel).toBe(false);
      expect(out.content, rel).toContain("yolo's configuration");
    }
    const edit = await write.run(write.schema.parse({ path: "lib/other.ts", content: "export {};\n" }), ctx);
    expect(edit.ok).toBe(true);
  });
});
