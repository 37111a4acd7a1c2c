import { useState } from 'preact/hooks';
import { requestConsole, type ConsoleType } from '../lib/guest-console';
import type { Problem } from '../lib/problems';
import { Alert } from './ui';

/**
 * Opens the server's screen or serial console in a new tab. The tab opens at the click (a tab
 * opened after an answer arrives may be blocked as a pop-up) and goes to the console page once
 * the API gave a ticket; a refusal closes it and shows here.
 */
/** `label` names the group: the server page has one for the server, the Rescue and ISO section one of its own. */
export function ConsoleControl({ instanceId, label = 'Console' }: { instanceId: string; label?: string }) {
  const [problem, setProblem] = useState<Problem>();
  const open = async (type: ConsoleType) => {
    setProblem(undefined);
    const tab = window.open('', '_blank');
    const offer = await requestConsole(instanceId, type);
    if (!offer.ok) {
      tab?.close();
      setProblem(offer.problem);
      return;
    }
    // The page on this console's own origin, which is the API's.
    const { pathname, search, hash } = new URL(offer.url);
    if (tab) tab.location.href = pathname + search + hash;
    else location.assign(pathname + search + hash);
  };
  return (
    <div class="console-control" role="group" aria-label={label}>
      <span>Console:</span>
      <button type="button" class="secondary" onClick={() => open('vnc')}>
        Screen
      </button>
      <button type="button" class="secondary" onClick={() => open('serial')}>
        Serial
      </button>
      <Alert problem={problem} />
    </div>
  );
}
