import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Signing what yolo keeps between processes where others might write: an entry is trusted only when its signature,
 * made with a random key of this user's kept beside the entries, matches. Whoever cannot read the key cannot make an
 * entry yolo accepts.
 */

const KEY_FILE = "key";

/**
 * This user's secret for signing entries in `dir` (32 random bytes, a private file there), created on first use. Null
 * when it cannot be made or is not exactly a private file of this user holding 64 hex digits: no cache then. `dir`
 * is a private folder (private-dir.ts).
 */
export function cacheKey(dir: string): Buffer | null {
  const path = join(dir, KEY_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const stat = lstatSync(path);
      if (!stat.isFile() || (stat.mode & 0o077) !== 0) return null;
      if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return null;
      const hex = readFileSync(path, "utf8");
      return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return null;
    }
    try {
      // Exclusive: two processes creating it at once agree on the one that won.
      writeFileSync(path, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return null;
    }
  }
  return null;
}

/** The signature of `text` with `key` (hex). */
export function signText(key: Buffer, text: string): string {
  return createHmac("sha256", key).update(text).digest("hex");
}

/** Whether `mac` is `text`'s signature with `key` (compared in constant time). */
export function signedBy(key: Buffer, text: string, mac: string): boolean {
  const expected = Buffer.from(signText(key, text), "hex");
  const given = Buffer.from(mac, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
