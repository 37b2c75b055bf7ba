import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { recordConfigTrust, trustedConfig } from "../../../src/config/trust/config-trust.js";
import { loadConfigFile } from "../../../src/config/load.js";
import { tempDir } from "../../helpers/per-test.js";

// What a trusted config is: one bundle of the config and what it reaches, in the user's state folder. An edit of any
// of it is refused until trusted; a file rewritten with the same content, or touched, is still the trusted bundle;
// and what runs is the bundle, whatever the work tree holds meanwhile.

function setUp(onTestFinished: TestContext["onTestFinished"], files: Record<string, string>) {
  const root = tempDir(onTestFinished, "yolo-bundle-root-");
  const env = { XDG_STATE_HOME: tempDir(onTestFinished, "yolo-bundle-state-") };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, env };
}

const FILES = {
  "yolo.config.ts": `import { defineConfig } from "yolo";\nimport { shared } from "./lib/shared";\nimport preset from "@team/preset";\nexport default defineConfig({ ...shared, ...preset });\n`,
  "lib/shared/index.ts": "export const shared = { maxFixAttempts: 2 };\n",
  "node_modules/@team/preset/package.json": '{ "name": "@team/preset", "main": "index.js" }\n',
  "node_modules/@team/preset/index.js": 'module.exports = { approve: ["pm"] };\n',
};

describe("the trusted config bundle", () => {
  it("holds the config, its modules and packages; runs as trusted while the tree changes; an edit is refused until trusted", async ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, FILES);
    const first = await trustedConfig(root, env);
    expect(first.inputs.map((f) => path.relative(root, f)).sort()).toEqual(
      ["lib/shared/index.ts", "node_modules/@team/preset/index.js", "yolo.config.ts"].sort(),
    );
    expect(first.bundle?.file.startsWith(env.XDG_STATE_HOME)).toBe(true);
    const load = async () => (await loadConfigFile(root, { bundle: (await trustedConfig(root, env)).bundle })).config;
    expect(await load()).toEqual({ maxFixAttempts: 2, approve: ["pm"] });

    for (const rel of ["lib/shared/index.ts", "node_modules/@team/preset/index.js", "yolo.config.ts"]) {
      const before = fs.readFileSync(path.join(root, rel), "utf8");
      fs.appendFileSync(path.join(root, rel), "\n// written by a model\n");
      await expect(trustedConfig(root, env), rel).rejects.toThrow(/changed since you trusted it.*yolo config trust/s);
      // The same content again (a checkout, an editor's save): still the trusted bundle.
      fs.writeFileSync(path.join(root, rel), before);
      await expect(trustedConfig(root, env), rel).resolves.toMatchObject({ bundle: { sha256: first.bundle?.sha256 } });
    }

    // A file that would now be found first (lib/shared.ts before lib/shared/index.ts) is a change.
    fs.writeFileSync(path.join(root, "lib/shared.ts"), "export const shared = { maxFixAttempts: 9 };\n");
    await expect(trustedConfig(root, env)).rejects.toThrow(/changed since you trusted it/);
    // What runs is the trusted bundle, never the tree: loaded from the bundle, the shadow has no effect.
    expect((await loadConfigFile(root, { bundle: first.bundle })).config).toEqual({ maxFixAttempts: 2, approve: ["pm"] });
    // Trusted again, it is the new bundle that runs.
    await recordConfigTrust(root, env);
    expect(await load()).toEqual({ maxFixAttempts: 9, approve: ["pm"] });
  });

  it("a bundle whose file changed in the state folder is not run; a bundle's require gives only yolo and Node's modules", async ({ onTestFinished }) => {
    const { root, env } = setUp(onTestFinished, { "yolo.config.ts": 'const name = "node:os";\nexport default { maxFixAttempts: require(name) ? 1 : 0 };\n' });
    await expect(trustedConfig(root, env)).rejects.toThrow(/yolo\.config\.ts:2: require\(\) of a computed specifier/);
    fs.writeFileSync(path.join(root, "yolo.config.ts"), "export default { maxFixAttempts: 1 };\n");
    const trusted = await recordConfigTrust(root, env);
    expect((await loadConfigFile(root, { bundle: trusted.bundle })).config).toEqual({ maxFixAttempts: 1 });
    fs.appendFileSync(trusted.bundle?.file as string, "\nmodule.exports.default = { maxFixAttempts: 3 };\n");
    await expect(loadConfigFile(root, { bundle: trusted.bundle })).rejects.toThrow(/not the one yolo made/);
  });
});
