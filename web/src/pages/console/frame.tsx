import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Alert } from '../../components/ui';
import { closedMessage } from '../../lib/console-close';
import { freshTicket, instanceOfPage, takeTicket, type ConsoleType } from '../../lib/guest-console';
import type { Problem } from '../../lib/problems';

export interface ConsoleEvents {
  connected(): void;
  closed(code: number, reason: string): void;
}

/** Opens the console of a ticket in `target`; answers how to close it again. */
export type StartConsole = (target: HTMLDivElement, ticket: string, events: ConsoleEvents) => () => void;

const TITLE: Record<ConsoleType, string> = { vnc: 'Screen', serial: 'Serial console' };

/**
 * What both console pages share: the ticket of the address, a status line, a clear message for
 * every way the console closes, and Reconnect, which asks the API for a fresh ticket.
 */
export function ConsoleFrame({ type, start, tools }: { type: ConsoleType; start: StartConsole; tools?: ComponentChildren }) {
  const target = useRef<HTMLDivElement>(null);
  const [ticket, setTicket] = useState(takeTicket);
  const [status, setStatus] = useState(ticket ? 'Connecting…' : 'This console link has no ticket. Reconnect to open one.');
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const instanceId = instanceOfPage();

  useEffect(() => {
    if (!ticket || !target.current) return undefined;
    setStatus('Connecting…');
    return start(target.current, ticket, {
      connected: () => {
        setOpen(true);
        setStatus('Connected');
      },
      closed: (code, reason) => {
        setOpen(false);
        setStatus(closedMessage(code, reason));
      },
    });
  }, [ticket]);

  const reconnect = async () => {
    if (!instanceId) return;
    setProblem(undefined);
    setStatus('Connecting…');
    const answer = await freshTicket(instanceId, type);
    if (answer.ok) setTicket(answer.ticket);
    else {
      setProblem(answer.problem);
      setStatus('Not connected');
    }
  };

  return (
    <div class="console-page">
      <div class="console-bar">
        <strong>{TITLE[type]}</strong>
        <span class="console-status" role="status" data-open={open ? 'yes' : 'no'}>
          {status}
        </span>
        <div class="actions">
          {open && tools}
          {!open && instanceId && (
            <button type="button" onClick={reconnect}>
              Reconnect
            </button>
          )}
        </div>
      </div>
      <Alert problem={problem} />
      <div class={`console-screen console-${type}`} ref={target} />
    </div>
  );
}
