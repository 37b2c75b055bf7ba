import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const LENGTH = 8;
// 252 = 7 × 36: bytes at or above it are discarded so every character is equally likely.
const UNBIASED_LIMIT = 252;

/** A short random thread id: 8 characters of [a-z0-9] (about 41 bits). */
export function newThreadId(): string {
  let id = "";
  while (id.length < LENGTH) {
    for (const byte of randomBytes(LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % ALPHABET.length];
      if (id.length === LENGTH) break;
    }
  }
  return id;
}

/** True for strings shaped like `newThreadId()` output. */
export function isThreadId(value: string): boolean {
  return /^[a-z0-9]{8}$/.test(value);
}
