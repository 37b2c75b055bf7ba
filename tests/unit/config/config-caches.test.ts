import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfigFile, loadUserConfig } from "../../../src/config/load.js";
import { cachedValidation, plainJson, privateCacheDir } from "../../../src/config/load-cache.js";
import { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

// A yolo.config.ts is transpiled (jiti, a TypeScript compiler) and validated (zod) on every command; both results
// are cached in the user's private cache directory. A cache may only ever save time: the config used is always the
// file on disk as it is now.

let root: string;
let cache: string;
let file: string;
beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-config-cache-root-");
  cache = join(tempDir(onTestFinished, "yolo-config-cache-"), "yolo");
  file = join(root, "yolo.config.ts");
});

const options = (build = "build-1") => ({ transpileCache: join(cache, "jiti"), validationCache: { dir: join(cache, "validated"), build } });
const load = (build?: string) => loadConfigFile(root, options(build)).then((r) => r.config);
const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

// Rewrites every entry of a cache folder (keeping its name, so a lookup finds it) through `edit`.
function tamper(dir: string, edit: (text: string) => string) {
  for (const name of entries(dir)) writeFileSync(join(dir, name), edit(readFileSync(join(dir, name), "utf8")));
}

describe("the transpile cache", () => {
  it("is written only where it is told (not jiti's shared folder under /tmp), private to the user", async ({ onTestFinished }) => {
    const tmp = tempDir(onTestFinished, "yolo-tmpdir-");
    vi.stubEnv("TMPDIR", tmp);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    writeFileSync(file, "const n: number = 2;\nexport default { maxFixAttempts: n };\n");
    expect(await load()).toEqual({ maxFixAttempts: 2 });
    expect(entries(join(cache, "jiti"))).toHaveLength(1);
    expect(readdirSync(tmp)).toEqual([]);
    expect(readdirSync(root)).toEqual(["yolo.config.ts"]);
    expect(readFileSync(join(cache, "jiti", entries(join(cache, "jiti"))[0]), "utf8")).toContain("maxFixAttempts");
    // Without a cache directory nothing is written anywhere.
    writeFileSync(file, "export default { maxFixAttempts: 3 };\n");
    expect((await loadConfigFile(root)).config).toEqual({ maxFixAttempts: 3 });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("sees every edit of the file: a cached transpile of an older content is not used", async () => {
    writeFileSync(file, "export default { maxFixAttempts: 1 };\n");
    expect(await load()).toEqual({ maxFixAttempts: 1 });
    writeFileSync(file, "export default { maxFixAttempts: 7 };\n");
    expect(await load()).toEqual({ maxFixAttempts: 7 });
    writeFileSync(file, "export default { maxFixAttempts: 1 };\n");
    expect(await load()).toEqual({ maxFixAttempts: 1 });
  });

  it("a cache entry edited by someone else is not run: it no longer matches the file's content", async () => {
    writeFileSync(file, "export default { maxFixAttempts: 1 };\n");
    await load();
    // Planted code under the entry's name, with the content hash of the file as it was.
    tamper(join(cache, "jiti"), (t) => t.replace("maxFixAttempts: 1", "maxFixAttempts: 9"));
    writeFileSync(file, "export default { maxFixAttempts: 2 };\n");
    expect(await load("build-2")).toEqual({ maxFixAttempts: 2 });
  });

  it("a cache folder that other users may write, or a symlink, is not used at all", async () => {
    writeFileSync(file, "export default { maxFixAttempts: 1 };\n");
    await load();
    tamper(join(cache, "jiti"), (t) => t.replace("maxFixAttempts: 1", "maxFixAttempts: 9"));
    tamper(join(cache, "validated"), (t) => t.replace('"output":"{\\"maxFixAttempts\\":1}"', '"output":"{\\"maxFixAttempts\\":9}"'));
    expect(readFileSync(join(cache, "validated", entries(join(cache, "validated"))[0]), "utf8")).toContain('"output":"{\\"maxFixAttempts\\":9}"');
    chmodSync(join(cache, "jiti"), 0o777);
    chmodSync(join(cache, "validated"), 0o777);
    expect(privateCacheDir(join(cache, "jiti"))).toBeNull();
    expect(await load()).toEqual({ maxFixAttempts: 1 });

    const link = join(cache, "link");
    mkdirSync(join(cache, "real"), { mode: 0o700 });
    symlinkSync(join(cache, "real"), link);
    expect(privateCacheDir(link)).toBeNull();
    expect(privateCacheDir(join(cache, "real"))).toBe(join(cache, "real"));
  });
});

describe("the validation cache", () => {
  it("answers a value validated before by the same build, and only that value", async () => {
    writeFileSync(file, 'export default { maxFixAttempts: 2, gates: [{ name: "unit", command: "npm test" }] };\n');
    const first = await load();
    // The schema's defaults are applied, and remembered with them.
    expect(first.gates).toEqual([{ name: "unit", command: "npm test", required: true, timeoutS: 600 }]);
    expect(entries(join(cache, "validated"))).toHaveLength(1);
    expect(await load()).toEqual(first);
    writeFileSync(file, 'export default { maxFixAttempts: 3, gates: [{ name: "unit", command: "npm test", required: false }] };\n');
    expect(await load()).toEqual({ maxFixAttempts: 3, gates: [{ name: "unit", command: "npm test", required: false, timeoutS: 600 }] });
  });

  it("an entry edited to say something else is not used when its value is not the file's (stale) or its build is another", async () => {
    writeFileSync(file, "export default { maxFixAttempts: 2 };\n");
    await load();
    const dir = join(cache, "validated");
    // The output changed under the entry's own name: same build and value, so only the folder's privacy protects it;
    // with the input or build changed as well, it is someone else's entry and is ignored.
    tamper(dir, (t) => t.replace('"input":"{\\"maxFixAttempts\\":2}"', '"input":"{\\"maxFixAttempts\\":5}"').replace(':2}"}', ':5}"}'));
    expect(await load()).toEqual({ maxFixAttempts: 2 });
    tamper(dir, (t) => t.replace('"build":"build-1"', '"build":"build-0"').replace(':2}"}', ':5}"}'));
    expect(await load()).toEqual({ maxFixAttempts: 2 });
    tamper(dir, () => "{ not json");
    expect(await load()).toEqual({ maxFixAttempts: 2 });
    // Another build validates again and keeps the entries of the build before (src/config/build-entries.ts).
    expect(entries(dir)).toHaveLength(1);
    expect(await load("build-2")).toEqual({ maxFixAttempts: 2 });
    expect(entries(dir)).toHaveLength(2);
    writeFileSync(file, "export default { maxFixAttempts: 3 };\n");
    expect(await load("build-2")).toEqual({ maxFixAttempts: 3 });
    expect(entries(dir)).toHaveLength(3);
  });

  it("never remembers an invalid config: it is reported on every load", async () => {
    writeFileSync(file, "export default { maxFixAttempts: -1, nope: true };\n");
    for (let i = 0; i < 2; i++) {
      const error = await load().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(String((error as ConfigError).problems)).toContain("nope");
    }
    expect(entries(join(cache, "validated"))).toEqual([]);
  });

  it("does not cache a value that is not plain data (a getter could answer differently next time)", async () => {
    writeFileSync(file, "let n = 0;\nexport default { get maxFixAttempts() { return ++n; } };\n");
    expect(await load()).toEqual({ maxFixAttempts: 1 });
    expect(entries(join(cache, "validated"))).toEqual([]);
    expect(plainJson({ a: [1, "x", null, true, { b: 2 }] })).toBe('{"a":[1,"x",null,true,{"b":2}]}');
    for (const v of [
      { f() {} },
      { a: undefined },
      new Array(3),
      [1, undefined],
      { d: new Date(0) },
      { n: Number.NaN },
      new Proxy({}, {}),
      { r: /x/ },
      { z: -0 },
    ]) {
      expect(plainJson(v), String(v)).toBeNull();
    }
    expect(
      cachedValidation({ dir: join(cache, "validated"), build: "b" }, "project", {
        get x() {
          return 1;
        },
      }),
    ).toBeUndefined();
  });

  it("keeps the user-level config apart from the project's (same value, another schema)", async ({ onTestFinished }) => {
    const user = join(tempDir(onTestFinished, "yolo-user-config-"), "config.json");
    writeFileSync(user, JSON.stringify({ sandbox: "bwrap" }));
    expect((await loadUserConfig({ YOLO_USER_CONFIG: user }, options())).config).toEqual({ sandbox: "bwrap" });
    expect((await loadUserConfig({ YOLO_USER_CONFIG: user }, options())).config).toEqual({ sandbox: "bwrap" });
    const validation = { dir: join(cache, "validated"), build: "build-1" };
    expect(cachedValidation(validation, "user", { sandbox: "bwrap" })).toEqual({ sandbox: "bwrap" });
    expect(cachedValidation(validation, "project", { sandbox: "bwrap" })).toBeUndefined();
  });
});
