/**
 * The events' schema version, on its own so that what stamps events (the run's emitter) does not load zod with the
 * schema. Bump it whenever an event's shape changes (src/events/schema.ts re-exports it).
 */
export const EVENT_SCHEMA_VERSION = 1;
