/**
 * Configuration of the /v1 data API, given as `createNetwork({ dataApi })` or
 * `startDevnet({ dataApi })` (and by scenario files). Each part is documented where it is used.
 */
export type DataApiOptions = {
  /** Serve /v1 on its own port as well as on every node's server (0 picks a free port). */
  port?: number
}
