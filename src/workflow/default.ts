// The default pipeline is built from the roles' catalog (src/roles/pipeline.ts); this path stays for its importers.
export { DEFAULT_WORKFLOW } from "../roles/pipeline.js";
