import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";
import { narrowable, scopeGate } from "../../../src/gates/detect/scope.js";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-scope-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const pkg = (name: string, deps: Record<string, string> = {}) => JSON.stringify({ name, scripts: { test: "node --test" }, dependencies: deps });
const scoped = (changed: string[]) => {
  const r = scopeGate(defaultGates(root)[0], root, changed);
  return [r.scope?.kind === "changed" ? `workspace:${r.scope.units.join(",")}` : "all", r.gate.command];
};

describe("narrowing a monorepo's test gate to what the change touches", () => {
  it("npm workspaces: the touched package and the packages that use it, transitively", () => {
    write("package.json", JSON.stringify({ name: "root", workspaces: ["packages/*"], scripts: { test: "npm test --workspaces" } }));
    write("packages/core/package.json", pkg("@x/core"));
    write("packages/api/package.json", pkg("@x/api", { "@x/core": "*" }));
    write("packages/web/package.json", pkg("@x/web", { "@x/api": "*" }));
    write("packages/docs/package.json", pkg("@x/docs"));
    expect(scoped(["packages/api/src/a.ts"])).toEqual(["workspace:@x/api,@x/web", "npm run test --if-present --workspace='@x/api' --workspace='@x/web'"]);
    expect(scoped(["packages/docs/x.md"])).toEqual(["workspace:@x/docs", "npm run test --if-present --workspace='@x/docs'"]);
    // The core is used by everything else except docs.
    expect(scoped(["packages/core/i.ts"])[0]).toBe("workspace:@x/api,@x/core,@x/web");
  });

  it("runs everything for a change outside every package, for no known change, or for a hand-written command", () => {
    write("package.json", JSON.stringify({ workspaces: ["packages/*"], scripts: { test: "vitest" } }));
    write("packages/a/package.json", pkg("a"));
    write("packages/b/package.json", pkg("b"));
    expect(scoped(["package-lock.json", "packages/a/x.ts"])).toEqual(["all", "npm test"]);
    expect(scoped([])).toEqual(["all", "npm test"]);
    expect(scopeGate({ name: "t", command: "npm test -- --ci", required: true, timeoutS: 1 }, root, ["packages/a/x.ts"]).scope?.kind).toBe("all");
    // What yolo init marks scope: "changed": the detected command of a layout yolo reads, nothing hand-written.
    expect(narrowable(defaultGates(root)[0], root)).toBe(true);
    expect(narrowable({ name: "t", command: "npm test -- --ci", required: true, timeoutS: 1 }, root)).toBe(false);
    // Each fallback says why.
    const why = (changed: string[]) => scopeGate(defaultGates(root)[0], root, changed).scope?.reason;
    expect(why(["package-lock.json", "packages/a/x.ts"])).toBe("package-lock.json is outside every workspace");
    expect(why([])).toBe("no file changed since the thread started");
    expect(why(["packages/a/x.ts", "packages/b/y.ts"])).toBe("the change touches every workspace");
  });

  it("a hostile file name cannot inject into the narrowed command", () => {
    write("pnpm-workspace.yaml", "packages:\n  - 'libs/*'\n");
    write("pnpm-lock.yaml", "");
    write("package.json", JSON.stringify({ scripts: { test: "pnpm -r test" } }));
    write("libs/a/package.json", pkg("a'; touch pwned; '"));
    write("libs/b/package.json", pkg("b"));
    expect(scoped(["libs/a/index.js"])).toEqual(["workspace:a'; touch pwned; '", "pnpm --filter='a'\\''; touch pwned; '\\''' run --if-present test"]);
  });

  it("cargo workspaces: -p for the touched crate and its dependents", () => {
    write("Cargo.toml", '[workspace]\nmembers = ["crates/*"]\n');
    write("crates/core/Cargo.toml", '[package]\nname = "core"\nversion = "0.1.0"\n');
    write("crates/cli/Cargo.toml", '[package]\nname = "cli"\nversion = "0.1.0"\n\n[dependencies]\ncore = { path = "../core" }\n');
    write("crates/other/Cargo.toml", '[package]\nname = "other"\nversion = "0.1.0"\n');
    expect(scoped(["crates/core/src/lib.rs"])).toEqual(["workspace:cli,core", "cargo test --no-fail-fast -p 'cli' -p 'core'"]);
  });

  it("Go modules in subfolders: the loop runs only the touched modules and their users", () => {
    write("lib/go.mod", "module example.com/lib\n\ngo 1.19\n");
    write("svc/go.mod", "module example.com/svc\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n");
    write("tool/go.mod", "module example.com/tool\n\ngo 1.19\n");
    expect(scoped(["tool/main.go"])).toEqual(["workspace:example.com/tool", "cd tool && go test -v ./..."]);
    expect(scoped(["lib/lib.go"])).toEqual([
      "workspace:example.com/lib,example.com/svc",
      'status=0; for m in lib svc; do (cd "$m" && go test -v ./...) || status=1; done; exit $status',
    ]);
  });
});
