import RFB from '@novnc/novnc';
import { useRef } from 'preact/hooks';
import { socketUrl } from '../../lib/guest-console';
import { ConsoleFrame, type StartConsole } from './frame';

/** The server's screen: noVNC over the API's WebSocket (plain RFB, security None), scaled to fit the window. */
export function VncConsolePage() {
  const rfb = useRef<RFB | undefined>(undefined);
  const start: StartConsole = (target, ticket, events) => {
    // Our own socket, handed to noVNC: its disconnect event does not carry the close reason.
    const socket = new WebSocket(socketUrl(ticket));
    socket.addEventListener('close', (event) => events.closed(event.code, event.reason));
    const client = new RFB(target, socket, { shared: true });
    client.scaleViewport = true;
    client.addEventListener('connect', () => {
      client.focus();
      events.connected();
    });
    rfb.current = client;
    return () => {
      rfb.current = undefined;
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) client.disconnect();
    };
  };
  return (
    <ConsoleFrame
      type="vnc"
      start={start}
      tools={
        <button type="button" class="secondary" onClick={() => rfb.current?.sendCtrlAltDel()}>
          Ctrl-Alt-Del
        </button>
      }
    />
  );
}
