import { pino, type DestinationStream, type Level, type Logger } from "pino";
import { Scrubber } from "../secrets/scrub.js";

/** Object paths whose values are always censored, whatever they hold. */
export const REDACT_PATHS = [
  "apiKey",
  "*.apiKey",
  "openAIApiKey",
  "*.openAIApiKey",
  "api_key",
  "*.api_key",
  "password",
  "*.password",
  "token",
  "*.token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  "configuration.apiKey",
  "*.configuration.apiKey",
];

const CENSOR = "[redacted]";
// Shorter values would match ordinary words and numbers in the log.
const MIN_SECRET_LENGTH = 6;

export interface LoggerOptions {
  /** The log file; created with its folder. Never stdout: the terminal UI owns fd 1. */
  file: string;
  level?: Level | "silent";
  /** Values (API keys, tokens) replaced by `[redacted]` wherever they appear in a log line. */
  secrets?: readonly string[];
}

/** A pino logger writing synchronously to `file`, censoring known secret fields and every given secret value. */
export function createLogger({ file, level = "info", secrets = [] }: LoggerOptions): Logger {
  const destination = pino.destination({ dest: file, mkdir: true, sync: true });
  return pino({ level, redact: { paths: REDACT_PATHS, censor: CENSOR }, base: { pid: process.pid } }, scrubbingStream(destination, secrets));
}

/** A logger that drops everything, for tests and for code paths without a log file. */
export function nullLogger(): Logger {
  return pino({ enabled: false, level: "silent" });
}

// Scrubbing the serialized line catches a secret wherever it hides: message, nested object, error stack, bindings.
// Each secret is also matched in its encoded forms (JSON-escaped, URL-encoded, hex, base64 at every alignment).
function scrubbingStream(destination: DestinationStream, secrets: readonly string[]): DestinationStream {
  const scrubber = new Scrubber(usableSecrets(secrets));
  if (scrubber.empty) return destination;
  return { write: (line: string) => destination.write(scrubber.scrub(line)) };
}

function usableSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((s) => typeof s === "string" && s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}
