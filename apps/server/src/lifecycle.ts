/** Process-wide state the routes read: set to draining when SIGTERM arrives. */
export interface Lifecycle {
  draining: boolean;
}
