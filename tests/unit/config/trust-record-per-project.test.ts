import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { configTrustEntryFile, readConfigTrust, type TrustEntry, writeConfigTrust } from "../../../src/config/trust/config-trust-store.js";

// Each project's trust record is its own file: a command reads only its project's record (one file holding every
// root grew to a megabyte and was parsed by every command), two projects trusted at once cannot overwrite each other
// (a lost record would let the next command trust a changed config as if the project were new), and a record an
// older yolo kept in the single trusted-config.json is still the one a project is held to.

const entry = (sha256: string): TrustEntry => ({ sha256, mcp: null, config: null, inputs: [], trustedAt: "2026-01-01T00:00:00.000Z" });

function stateDir(onTestFinished: (fn: () => void) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "yolo-trust-store-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("config trust records", () => {
  it("keeps one record per project root, each read back alone", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeConfigTrust(dir, "/p/one", entry("a"));
    writeConfigTrust(dir, "/p/two", entry("b"));
    writeConfigTrust(dir, "/p/one", entry("c"));
    expect(readConfigTrust(dir, "/p/one")?.sha256).toBe("c");
    expect(readConfigTrust(dir, "/p/two")?.sha256).toBe("b");
    expect(readConfigTrust(dir, "/p/three")).toBeNull();
    expect(readdirSync(join(dir, "trusted-config"))).toHaveLength(2);
  });

  it("still holds a project to the record an older yolo kept in trusted-config.json", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeFileSync(join(dir, "trusted-config.json"), JSON.stringify({ "/p/old": entry("legacy"), "/p/other": entry("x") }));
    expect(readConfigTrust(dir, "/p/old")?.sha256).toBe("legacy");
    // Its own record, once written, is the one read.
    writeConfigTrust(dir, "/p/old", entry("new"));
    expect(readConfigTrust(dir, "/p/old")?.sha256).toBe("new");
  });

  it("reads a record written for another root, or not a record, as nothing trusted", ({ expect, onTestFinished }) => {
    const dir = stateDir(onTestFinished);
    writeConfigTrust(dir, "/p/a", entry("a"));
    // A record copied over another root's file (or a hash collision) is not that root's.
    writeFileSync(configTrustEntryFile(dir, "/p/b"), JSON.stringify({ root: "/p/a", ...entry("a") }));
    expect(readConfigTrust(dir, "/p/b")).toBeNull();
    writeFileSync(configTrustEntryFile(dir, "/p/c"), "{ not json");
    // Unreadable: nothing trusted, and not read through to an older record either.
    writeFileSync(join(dir, "trusted-config.json"), JSON.stringify({ "/p/c": entry("legacy") }));
    expect(readConfigTrust(dir, "/p/c")).toBeNull();
  });
});
