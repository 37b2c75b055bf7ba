import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pipxCached } from "../../../src/mcp/pipx-cache.js";

let home: string;
afterEach(() => rmSync(home, { recursive: true, force: true }));

// A virtualenv as `pipx run` leaves it: pipx_metadata.json, pyvenv.cfg, the program in bin/.
function venv(name: string, packageOrUrl: string, apps: string[], mtime: number): string {
  const dir = join(home, ".local/pipx/.cache", name);
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "pyvenv.cfg"), "home = /usr/bin\n");
  writeFileSync(join(dir, "pipx_metadata.json"), JSON.stringify({ main_package: { package_or_url: packageOrUrl, apps } }));
  for (const app of apps) {
    writeFileSync(join(dir, "bin", app), "#!/usr/bin/env python3\n");
    utimesSync(join(dir, "bin", app), mtime, mtime);
  }
  return dir;
}

describe("pipx run servers found in the user's pipx cache", () => {
  it("finds the newest virtualenv made for the spec with that program; passes the rest on; says the command that fills the cache", () => {
    home = mkdtempSync(join(tmpdir(), "yolo-pipx-unit-"));
    venv("aaa", "mcp-notes", ["mcp-notes"], 1_000);
    const newer = venv("bbb", "mcp-notes", ["mcp-notes"], 2_000);
    venv("ccc", "other", ["mcp-notes"], 3_000);
    const env = { HOME: home };
    expect(pipxCached("pipx", ["run", "-q", "mcp-notes", "--root", "."], env)).toMatchObject({
      runner: "pipx",
      bin: join(newer, "bin", "mcp-notes"),
      rest: ["--root", "."],
      warm: "pipx run mcp-notes",
    });
    expect(pipxCached("/usr/bin/pipx", ["run", "--spec", "other", "mcp-notes"], env)).toMatchObject({
      bin: join(home, ".local/pipx/.cache/ccc/bin/mcp-notes"),
      warm: "pipx run --spec other mcp-notes",
    });
    expect(pipxCached("pipx", ["run", "never-run"], env)).toMatchObject({ bin: null, cache: join(home, ".local/pipx/.cache") });
  });

  it("leaves other commands and forms to pipx, and never takes a program outside its virtualenv", () => {
    home = mkdtempSync(join(tmpdir(), "yolo-pipx-unit-"));
    venv("aaa", "x", ["../../evil"], 1_000);
    const env = { HOME: home };
    expect(pipxCached("pipx", ["install", "x"], env)).toBeNull();
    expect(pipxCached("pipx", ["run", "--python", "3.12", "x"], env)).toBeNull();
    expect(pipxCached("uvx", ["x"], env)).toBeNull();
    expect(pipxCached("pipx", ["run", "--spec", "x", "../../evil"], env)?.bin).toBeNull();
    expect(pipxCached("pipx", ["run", "x"], { PIPX_HOME: join(home, "elsewhere"), HOME: home })).toMatchObject({
      bin: null,
      cache: join(home, "elsewhere", ".cache"),
    });
  });
});
