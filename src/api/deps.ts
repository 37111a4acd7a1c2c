import type { ServiceDeps } from '../services/deps';

/** What the API's routers are built with: what the services they call need, and the process's stop signal. */
export interface ApiDeps extends ServiceDeps {
  /** Aborted when the process is stopping: open event streams end with `event: close` (reason `shutting_down`). */
  stopping?: AbortSignal;
}
