import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { findUserConfigFile, loadUserConfig } from "../../../src/config/load.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import type { UserConfig, UserLevelConfig } from "../../../src/config/schema.js";
import { ConfigError } from "../../../src/errors.js";
import { checkCommand, policyForRole } from "../../../src/tools/command-policy.js";
import { commandEnv } from "../../../src/secrets/env.js";
import { tempDir } from "../../helpers/per-test.js";

function tmp(): string {
  return tempDir(onTestFinished, "yolo-usercfg-");
}

const resolveWith = (user: UserLevelConfig, repo: UserConfig, env: Record<string, string> = {}) =>
  resolveConfig({ root: "/p", fileConfig: repo, file: "/p/yolo.config.ts", env, userConfig: { file: "/home/u/.config/yolo/config.ts", config: user } });

describe("the user-level config", () => {
  it("is found through YOLO_USER_CONFIG, then $XDG_CONFIG_HOME/yolo, then ~/.config/yolo; empty YOLO_USER_CONFIG means none", () => {
    const home = tmp();
    const xdg = tmp();
    fs.mkdirSync(path.join(home, ".config", "yolo"), { recursive: true });
    fs.writeFileSync(path.join(home, ".config", "yolo", "config.json"), "{}");
    expect(findUserConfigFile({ HOME: home })).toBe(path.join(home, ".config", "yolo", "config.json"));
    fs.mkdirSync(path.join(xdg, "yolo"));
    fs.writeFileSync(path.join(xdg, "yolo", "config.ts"), "export default {}");
    expect(findUserConfigFile({ HOME: home, XDG_CONFIG_HOME: xdg })).toBe(path.join(xdg, "yolo", "config.ts"));
    expect(findUserConfigFile({ HOME: home, YOLO_USER_CONFIG: "" })).toBeNull();
    expect(() => findUserConfigFile({ YOLO_USER_CONFIG: path.join(home, "missing.ts") })).toThrow(ConfigError);
  });

  it("loads TypeScript or JSON, strictly: only commands, env, sandbox, files, hooks and mcpServers", async () => {
    const dir = tmp();
    const ts = path.join(dir, "config.ts");
    fs.writeFileSync(ts, 'export default { commands: { allow: ["npm", "git status"] }, sandbox: "bwrap" as const };');
    expect(await loadUserConfig({ YOLO_USER_CONFIG: ts })).toEqual({ file: ts, config: { commands: { allow: ["npm", "git status"] }, sandbox: "bwrap" } });
    const json = path.join(dir, "config.json");
    fs.writeFileSync(json, JSON.stringify({ model: { name: "x" }, sandbox: "sometimes" }));
    const error = await loadUserConfig({ YOLO_USER_CONFIG: json }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^sandbox: /),
      "model: unknown key; known keys: commands, env, sandbox, files, hooks, mcpServers",
    ]);
  });
});

describe("the repository's config narrows the user's, never widens it", () => {
  it("allow-lists intersect and deny rules add up", () => {
    const cfg = resolveWith({ commands: { allow: ["npm", "git"], deny: ["git push"] } }, { commands: { allow: ["npm test", "make"], deny: ["npm publish"] } });
    const check = (command: string) => checkCommand(command, cfg.commands.policy);
    expect(check("npm test")).toEqual({ ok: true });
    expect(check("make build")).toMatchObject({ ok: false, reason: expect.stringContaining("allow-list of /home/u/.config/yolo/config.ts") });
    expect(check("git status")).toMatchObject({ ok: false, reason: expect.stringContaining("allow-list of yolo.config.ts") });
    expect(check("npm publish")).toMatchObject({ ok: false, reason: expect.stringContaining('"npm publish" (yolo.config.ts)') });
    expect(check("sudo npm test")).toMatchObject({ ok: false, reason: expect.stringContaining("default deny list") });
  });

  it("a role's rules (by agent id, else role) narrow further with the same matcher", () => {
    const cfg = resolveWith({}, { commands: { roles: { tea: { allow: ["npm test", "node --test"] } } } });
    const tea = policyForRole(cfg.commands.policy, cfg.commands.roles, "qa", "tea");
    expect(checkCommand("npm test", tea)).toEqual({ ok: true });
    expect(checkCommand("rm -rf src", tea)).toMatchObject({ ok: false, reason: expect.stringContaining("yolo.config.ts, role tea") });
    expect(checkCommand("rm -rf src", policyForRole(cfg.commands.policy, cfg.commands.roles, "dev", "dev"))).toEqual({ ok: true });
  });

  it("the sandbox is the stronger of the two settings; YOLO_SANDBOX speaks for the user", () => {
    expect(resolveWith({}, {}).sandbox).toBe("auto");
    expect(resolveWith({}, { sandbox: "off" }).sandbox).toBe("auto");
    expect(resolveWith({ sandbox: "off" }, {}).sandbox).toBe("off");
    expect(resolveWith({ sandbox: "off" }, { sandbox: "bwrap" }).sandbox).toBe("bwrap");
    expect(resolveWith({ sandbox: "bwrap" }, { sandbox: "off" }).sandbox).toBe("bwrap");
    expect(resolveWith({}, {}, { YOLO_SANDBOX: "off" }).sandbox).toBe("off");
    expect(() => resolveWith({}, {}, { YOLO_SANDBOX: "maybe" })).toThrow(/YOLO_SANDBOX: must be auto, required \(or bwrap\), or off/);
  });
});

describe("the environment of commands under CI", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    LC_ALL: "C",
    CI: "true",
    NODE_OPTIONS: "--max-old-space-size=512",
    DEPLOY_HOOK_URL: "https://hooks.example/abc",
    AWS_PROFILE: "prod",
    GITHUB_TOKEN: "ghp_x",
    MY_APP_MODE: "test",
  };

  it("is only the allow-listed variables (plus env.allow), secret-looking names removed even when allowed", () => {
    const cfg = resolveWith({ env: { allow: ["MY_APP_*"] } }, { env: { allow: ["GITHUB_TOKEN"] } }, { CI: "1" });
    expect(cfg.env.strict).toBe(true);
    expect(commandEnv(env, [], cfg.env.allow)).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      CI: "true",
      NODE_OPTIONS: "--max-old-space-size=512",
      MY_APP_MODE: "test",
    });
  });

  it("without CI, is the same allow-list: credentials under names no pattern guesses stay out", () => {
    const cfg = resolveWith({ env: { allow: ["MY_APP_*"] } }, {}, {});
    expect(cfg.env.strict).toBe(true);
    const out = commandEnv(env, [], cfg.env.allow);
    expect(out).toMatchObject({ PATH: "/usr/bin", HOME: "/home/u", MY_APP_MODE: "test" });
    expect(out).not.toHaveProperty("DEPLOY_HOOK_URL");
    expect(out).not.toHaveProperty("AWS_PROFILE");
    expect(out).not.toHaveProperty("GITHUB_TOKEN");
  });

  it("the scrubbed environment alone (no allow-list) is what a caller without a config gets", () => {
    const out = commandEnv(env, [], null);
    expect(out).toMatchObject({ DEPLOY_HOOK_URL: "https://hooks.example/abc", AWS_PROFILE: "prod", MY_APP_MODE: "test" });
    expect(out).not.toHaveProperty("GITHUB_TOKEN");
  });
});
