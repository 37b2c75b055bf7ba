import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { configTrustEntryFile, readConfigTrust, type TrustEntry, writeConfigTrust } from "../../../src/config/trust/config-trust-store.js";

// The single trusted-config.json an older yolo kept (every root it ever trusted: a megabyte on a machine that ran the
// test suite) is split into one record per root the first time a command misses its own record, and then set aside:
// a command in a project yolo never saw reads one missing file, not the whole old store. Every root keeps what it
// was held to, and a record written meanwhile is never overwritten by the older one.

const entry = (sha256: string): TrustEntry => ({ sha256, mcp: null, config: null, inputs: [], trustedAt: "2026-01-01T00:00:00.000Z" });

function stateDir(onTestFinished: (fn: () => void) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "yolo-trust-split-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("the older single trust store", () => {
  it("is split into one record per root at the first miss, then set aside; every root is still held to its record", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    const legacy = join(dir, "trusted-config.json");
    writeFileSync(legacy, JSON.stringify({ "/p/old": entry("legacy"), "/p/other": entry("x"), "/p/broken": { not: "an entry" } }));
    // A root yolo never saw: nothing trusted, and the old store is split on the way.
    expect(readConfigTrust(dir, "/p/new")).toBeNull();
    expect(existsSync(legacy)).toBe(false);
    expect(readdirSync(join(dir, "trusted-config")).sort()).toEqual(
      [configTrustEntryFile(dir, "/p/old"), configTrustEntryFile(dir, "/p/other")].map((f) => f.slice(f.lastIndexOf("/") + 1)).sort(),
    );
    expect(readConfigTrust(dir, "/p/old")?.sha256).toBe("legacy");
    expect(readConfigTrust(dir, "/p/other")?.sha256).toBe("x");
    expect(readConfigTrust(dir, "/p/broken")).toBeNull();
    // What was set aside is still there for the user to read.
    expect(JSON.parse(readFileSync(`${legacy}.split`, "utf8"))["/p/old"].sha256).toBe("legacy");
  });

  it("a root's own record, written before the split, is kept over the old store's", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeFileSync(join(dir, "trusted-config.json"), JSON.stringify({ "/p/a": entry("older"), "/p/b": entry("b") }));
    writeConfigTrust(dir, "/p/a", entry("newer"));
    // The miss that splits the store (another root's), then the root that had its own record already.
    expect(readConfigTrust(dir, "/p/c")).toBeNull();
    expect(readConfigTrust(dir, "/p/a")?.sha256).toBe("newer");
    expect(readConfigTrust(dir, "/p/b")?.sha256).toBe("b");
  });

  it("the root whose miss splits the store gets its old record at once", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeFileSync(join(dir, "trusted-config.json"), JSON.stringify({ "/p/a": entry("a") }));
    expect(readConfigTrust(dir, "/p/a")?.sha256).toBe("a");
    expect(existsSync(join(dir, "trusted-config.json"))).toBe(false);
    expect(readConfigTrust(dir, "/p/a")?.sha256).toBe("a");
  });

  it("an old store that cannot be parsed is left as it is, and trusts nothing", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeFileSync(join(dir, "trusted-config.json"), "{ not json");
    expect(readConfigTrust(dir, "/p/a")).toBeNull();
    expect(readFileSync(join(dir, "trusted-config.json"), "utf8")).toBe("{ not json");
  });
});
