import { ApplicationFailure } from '@temporalio/common';

/**
 * Failure types shared by activities (which throw them) and workflows (which decide on them).
 * Each maps to a customer-safe code; the provider's own words travel separately, for operators.
 */
export const FailureType = {
  /** Proxmox refused the request for good (a rule, a missing template, a bad parameter). */
  ProviderRejected: 'PROVIDER_REJECTED',
  /** A Proxmox task ended in error. */
  ProviderTaskFailed: 'PROVIDER_TASK_FAILED',
  /** A guest we did not create sits on our reserved VMID. */
  GuestConflict: 'GUEST_CONFLICT',
  /** The guest is locked and an API token cannot unlock it (`qm unlock` needed), or left disks behind. */
  GuestLocked: 'GUEST_LOCKED',
  /** The guest disappeared from the cluster under us. */
  GuestLost: 'GUEST_LOST',
  /** The guest never reached the state it should (retried until the stage's budget runs out). */
  GuestNotRunning: 'GUEST_NOT_RUNNING',
  /** Proxmox refused the API token a privilege the call needs (HTTP 403): the role is incomplete. */
  ProviderPermissionDenied: 'PROVIDER_PERMISSION_DENIED',
  /** Our own records are not what the step needs (a bug or a manual change). */
  InconsistentState: 'INCONSISTENT_STATE',
  /** The customer deleted the instance while it was being made: it must not become ready. */
  DeleteRequested: 'DELETE_REQUESTED',
  /** Proxmox does not list the snippet a worker wrote (the storage is not what the workers' directory holds). */
  SnippetsNotVisible: 'SNIPPETS_NOT_VISIBLE',
  /** Proxmox could not fetch a download's URL (HTTP error, DNS, refused, timed out). */
  DownloadUnreachable: 'DOWNLOAD_URL_UNREACHABLE',
  /** The downloaded file's checksum is not the one given (Proxmox removed the file). */
  DownloadChecksumMismatch: 'DOWNLOAD_CHECKSUM_MISMATCH',
  /** The downloaded file is not what its content type needs (not a disk image Proxmox can import). */
  DownloadInvalidFile: 'DOWNLOAD_INVALID_FILE',
  /** The storage had no room left for the download. */
  DownloadStorageFull: 'DOWNLOAD_STORAGE_FULL',
  /** The storage does not take the download's content type (`import`, `iso`). */
  DownloadStorageRefused: 'DOWNLOAD_STORAGE_REFUSED',
} as const;

export const NON_RETRYABLE_TYPES: string[] = [
  FailureType.ProviderRejected,
  FailureType.ProviderTaskFailed,
  FailureType.GuestConflict,
  FailureType.GuestLocked,
  FailureType.GuestLost,
  FailureType.ProviderPermissionDenied,
  FailureType.InconsistentState,
  FailureType.DeleteRequested,
  FailureType.SnippetsNotVisible,
  FailureType.DownloadUnreachable,
  FailureType.DownloadChecksumMismatch,
  FailureType.DownloadInvalidFile,
  FailureType.DownloadStorageFull,
  FailureType.DownloadStorageRefused,
];

/** What a customer is told when Proxmox refused a privilege (PROVIDER_PERMISSION_DENIED); Proxmox's words stay with operators. */
export const PERMISSION_DENIED_MESSAGE = 'The hypervisor refused the control plane a permission this needs; an operator must fix its access. Nothing was kept.';

/** What a customer is told when their server's guest vanished from the cluster (GUEST_LOST). */
export const GUEST_LOST_MESSAGE = 'The server disappeared from its host. Its address and resources are kept while an operator looks into it.';

/** The type of the first application failure along a failure's causes (a workflow's, an activity's), if any. */
export function rootFailureType(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  }
  return undefined;
}
