/**
 * The defaults of the run limits a flag can override. Kept free of imports so `yolo --help` can show them
 * without loading the config resolver.
 */
export const LIMIT_DEFAULTS = Object.freeze({ maxFixAttempts: 3, maxTurns: 30, maxSteps: 200 });

/** Stories built at the same time by default (docs/stories.md says why 3). */
export const PARALLEL_DEFAULT = 3;

/** Tool calls run from one model reply by default; a reply with more gets an error for the rest (limits.toolCallsPerTurn). */
export const DEFAULT_TOOL_CALLS_PER_TURN = 32;

/**
 * The instruction file names read by default, in the order a folder's one is chosen: `AGENTS.md` (the shared
 * convention of Codex, Jules, Cursor, Zed, opencode…), else `CLAUDE.md` (Claude Code), else `GEMINI.md` (Gemini CLI), so a
 * team that keeps only one of them gets it without configuring anything. `instructionFiles` in yolo.config.ts replaces
 * the list (e.g. `["AGENTS.md", "CONVENTIONS.md"]`, or `[".cursorrules"]`).
 */
export const DEFAULT_INSTRUCTION_FILES: readonly string[] = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"];

/**
 * Bounds of one model answer: the time from the request to its last byte (30 min: a CPU-bound local model writing a
 * long answer at a few tokens a second needs many minutes), and its size on the wire. A streamed
 * token costs ~200 bytes of SSE, so 64 MB holds the longest answer any model gives (128k tokens is ~25 MB) with room,
 * and stays far below what V8 can hold in one string (~512 MB).
 */
export const MODEL_REPLY_DEFAULTS = Object.freeze({ callDeadlineS: 1800, maxReplyBytes: 64 * 1024 * 1024 });
