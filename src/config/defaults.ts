/**
 * The defaults of the run limits a flag can override. Kept free of imports so `yolo --help` can show them
 * without loading the config resolver.
 */
export const LIMIT_DEFAULTS = Object.freeze({ maxFixAttempts: 3, maxTurns: 30, maxSteps: 200 });

/** Stories built at the same time by default (README, "Stories in parallel", says why 3). */
export const PARALLEL_DEFAULT = 3;

/**
 * Bounds of one model answer: the time from the request to its last byte (30 min: a CPU-bound local model writing a
 * long answer at a few tokens a second needs many minutes), and its size on the wire. A streamed
 * token costs ~200 bytes of SSE, so 64 MB holds the longest answer any model gives (128k tokens is ~25 MB) with room,
 * and stays far below what V8 can hold in one string (~512 MB).
 */
export const MODEL_REPLY_DEFAULTS = Object.freeze({ callDeadlineS: 1800, maxReplyBytes: 64 * 1024 * 1024 });
