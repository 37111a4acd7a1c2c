import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { InstanceStatus } from '../../../clients/typescript/index';
import type { Problem } from '../lib/problems';
import { statusLook } from '../lib/status';

export function StatusBadge({ status }: { status: InstanceStatus }) {
  const look = statusLook(status);
  return (
    <span class={`badge badge-${look.tone}`} data-status={status}>
      <span aria-hidden="true">{look.symbol}</span> {look.label}
    </span>
  );
}

/** A server list's first two cells: the host name, a link to the server's page, and the status. */
export function ServerNameAndStatusCells({ server }: { server: { id: string; hostname: string; status: InstanceStatus } }) {
  return (
    <>
      <td data-label="Host name">
        <a href={`/servers/${server.id}`}>{server.hostname}</a>
      </td>
      <td data-label="Status">
        <StatusBadge status={server.status} />
      </td>
    </>
  );
}

/** A refusal or failure, announced to screen readers as it appears. */
export function Alert({ problem, title }: { problem: Problem | string | undefined; title?: string }) {
  if (!problem) return null;
  const message = typeof problem === 'string' ? problem : problem.message;
  return (
    <div class="alert" role="alert">
      {title && <strong>{title}: </strong>}
      {message}
      {typeof problem !== 'string' && <span class="code"> ({problem.code})</span>}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      {children}
    </div>
  );
}

/** A labelled form control with its error right below it, tied together for assistive technology. */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          <span aria-hidden="true">✕ </span>
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes for the control inside a Field. */
export const described = (id: string, error?: string, hint?: string) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined,
});

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once: the text, a copy button and the warning that it will not be shown again. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <div class="secret" role="status">
      <p class="warning">
        <span aria-hidden="true">⚠ </span>Shown once: copy it now. It cannot be shown again.
      </p>
      <div class="secret-row">
        <code aria-label={label}>{value}</code>
        <CopyButton text={value} />
      </div>
    </div>
  );
}

/** A modal question (the native <dialog>, so focus and Escape work as they should). */
export function Confirm({ open, title, children, confirmLabel, onConfirm, onCancel, danger }: {
  open: boolean;
  title: string;
  children?: ComponentChildren;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Several questions live on one page: each names its own dialog.
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={onCancel}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class={danger ? 'danger' : ''} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A list table: its caption (visible, or for screen readers only), column headings ('' for an actions column) and rows. */
export function Table({ caption, hiddenCaption, columns, children }: { caption: ComponentChildren; hiddenCaption?: boolean; columns: string[]; children: ComponentChildren }) {
  return (
    <table class="list">
      <caption class={hiddenCaption ? 'sr-only' : undefined}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column || <span class="sr-only">Actions</span>}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
