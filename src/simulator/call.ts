/**
 * What every simulated API call carries into the cluster (caller, fault), and how a call fails.
 */
import type { Fault } from './faults';

export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A failure Proxmox answers with HTTP 500 and this message. */
export const fail = (message: string): SimHttpError => new SimHttpError(500, message);

export interface CallContext {
  /** Full token id of the caller. */
  user: string;
  fault?: Fault;
  /** Set by operations that applied the fault themselves. */
  faultHandled?: boolean;
}
