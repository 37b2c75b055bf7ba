import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configModules } from "../../../src/config/config-modules.js";
import { checkConfigTrust, recordConfigTrust } from "../../../src/cli/config-trust.js";
import type { TestContext } from "vitest";
import { tempDir } from "../../helpers/per-test.js";

// Modules imported by a trusted yolo.config.ts are part of its trust: a model that edits `./yolo.shared.ts` (or a
// module that one imports) must make read-only commands refuse the config, as an edit of the config itself does.

function setUp(onTestFinished: TestContext["onTestFinished"], files: Record<string, string>) {
  const root = fs.realpathSync(tempDir(onTestFinished, "yolo-trust-root-"));
  const env = { XDG_STATE_HOME: tempDir(onTestFinished, "yolo-trust-state-") };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, env };
}

const CONFIG = `import { shared } from "./yolo.shared.js";\nimport type { X } from "./types";\nexport default { ...shared, gates: require("./conf/gates.json") };\n`;

describe("the config trust hash covers the modules the config imports", () => {
  it("an edit to a module imported directly or transitively is refused until trusted", ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, {
      "yolo.config.ts": CONFIG,
      "yolo.shared.ts": `export { deep as shared } from "./lib/deep";\n`,
      "lib/deep/index.ts": "export const deep = {};\n",
      "types.d.ts": "export type X = 1;\n",
      "conf/gates.json": "[]\n",
    });
    expect(
      configModules(root, path.join(root, "yolo.config.ts"))
        .files.map((f) => path.relative(root, f))
        .sort(),
    ).toEqual(["conf/gates.json", "lib/deep/index.ts", "types.d.ts", "yolo.config.ts", "yolo.shared.ts"].sort());
    recordConfigTrust(root, env);
    expect(() => checkConfigTrust(root, env)).not.toThrow();
    for (const rel of ["yolo.shared.ts", "lib/deep/index.ts", "conf/gates.json", "types.d.ts"]) {
      const before = fs.readFileSync(path.join(root, rel), "utf8");
      fs.appendFileSync(path.join(root, rel), `\n// ${"x".repeat(3)} written by a model\n`);
      expect(() => checkConfigTrust(root, env), rel).toThrow(/changed since you last ran yolo with it.*yolo config trust/s);
      fs.writeFileSync(path.join(root, rel), before);
      expect(() => checkConfigTrust(root, env), rel).not.toThrow();
    }
    // Edited then trusted again: accepted.
    fs.appendFileSync(path.join(root, "yolo.shared.ts"), "export const more = 1;\n");
    recordConfigTrust(root, env);
    expect(() => checkConfigTrust(root, env)).not.toThrow();
  });

  it("a module swapped for a link, a new import, or an import leaving the project fails closed", ({ onTestFinished }) => {
    const outside = tempDir(onTestFinished, "yolo-trust-outside-");
    fs.writeFileSync(path.join(outside, "evil.ts"), "export const shared = {};\n");
    const { root, env } = setUp(onTestFinished, {
      "yolo.config.ts": `import { shared } from "./yolo.shared";\nexport default shared;\n`,
      "yolo.shared.ts": "export const shared = {};\n",
    });
    recordConfigTrust(root, env);
    // A link to a file outside the project.
    fs.rmSync(path.join(root, "yolo.shared.ts"));
    fs.symlinkSync(path.join(outside, "evil.ts"), path.join(root, "yolo.shared.ts"));
    expect(() => checkConfigTrust(root, env)).toThrow(/yolo\.shared\.ts is outside the project/);
    // An import that leaves the project.
    fs.rmSync(path.join(root, "yolo.shared.ts"));
    fs.writeFileSync(path.join(root, "yolo.shared.ts"), `export * from "${path.relative(root, path.join(outside, "evil"))}";\n`);
    expect(() => checkConfigTrust(root, env)).toThrow(/outside the project/);
    // An import that cannot be found.
    fs.writeFileSync(path.join(root, "yolo.shared.ts"), `export * from "./gone";\n`);
    expect(() => checkConfigTrust(root, env)).toThrow(/imports \.\/gone, which yolo cannot find/);
    // A project never recorded is taken as it is (no run could have written it).
    const fresh = setUp(onTestFinished, { "yolo.config.ts": `import "./nowhere";\nexport default {};\n` });
    expect(() => checkConfigTrust(fresh.root, fresh.env)).not.toThrow();
  });

  it("package and node: imports are not followed, and a config with none loads no parser", ({ onTestFinished }) => {
    const { root } = setUp(onTestFinished, {
      "yolo.config.ts": `import { defineConfig } from "yolo";\nimport fs from "node:fs";\nexport default defineConfig({});\n`,
    });
    expect(configModules(root, path.join(root, "yolo.config.ts"))).toEqual({ files: [path.join(root, "yolo.config.ts")], problems: [] });
  });
});
