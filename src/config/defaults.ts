/**
 * The defaults of the run limits a flag can override. Kept free of imports so `yolo --help` can show them
 * without loading the config resolver.
 */
export const LIMIT_DEFAULTS = Object.freeze({ maxFixAttempts: 3, maxTurns: 30, maxSteps: 200 });
