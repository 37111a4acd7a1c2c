import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useRef } from 'preact/hooks';
import { constructStyleElements } from '../../lib/constructed-styles';
import { socketUrl } from '../../lib/guest-console';
import { ConsoleFrame, type StartConsole } from './frame';

const FONT_SIZE = 15;
const FONT_FAMILY = 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace';

/** How many columns and rows of the terminal's font fit in the element (at least 20 × 5). */
function sizeFor(element: HTMLElement): { cols: number; rows: number } {
  const context = document.createElement('canvas').getContext('2d');
  if (context) context.font = `${FONT_SIZE}px ${FONT_FAMILY}`;
  const cellWidth = context?.measureText('W').width || FONT_SIZE * 0.6;
  const cellHeight = Math.ceil(FONT_SIZE * 1.2);
  return { cols: Math.max(20, Math.floor((element.clientWidth - 16) / cellWidth)), rows: Math.max(5, Math.floor((element.clientHeight - 8) / cellHeight)) };
}

/** The server's first serial port: xterm.js over the API's WebSocket, keystrokes as binary frames, resize as text frames. */
export function SerialConsolePage() {
  const input = useRef<((text: string) => void) | undefined>(undefined);
  const start: StartConsole = (target, ticket, events) => {
    constructStyleElements();
    const terminal = new Terminal({ fontSize: FONT_SIZE, fontFamily: FONT_FAMILY, cursorBlink: true, scrollback: 5000 });
    const socket = new WebSocket(socketUrl(ticket));
    socket.binaryType = 'arraybuffer';
    const encoder = new TextEncoder();
    const send = (text: string) => socket.readyState === WebSocket.OPEN && socket.send(encoder.encode(text));
    const sendSize = ({ cols, rows }: { cols: number; rows: number }) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: 'resize', cols, rows }));
    const fit = () => terminal.resize(sizeFor(target).cols, sizeFor(target).rows);
    terminal.open(target);
    fit();
    terminal.onData(send);
    terminal.onResize(sendSize);
    socket.addEventListener('open', () => {
      sendSize({ cols: terminal.cols, rows: terminal.rows });
      terminal.focus();
      events.connected();
    });
    socket.addEventListener('message', (event) => terminal.write(typeof event.data === 'string' ? event.data : new Uint8Array(event.data as ArrayBuffer)));
    socket.addEventListener('close', (event) => events.closed(event.code, event.reason));
    window.addEventListener('resize', fit);
    input.current = send;
    return () => {
      window.removeEventListener('resize', fit);
      input.current = undefined;
      socket.close();
      terminal.dispose();
    };
  };
  const paste = async () => {
    const text = await navigator.clipboard.readText().catch(() => '');
    if (text) input.current?.(text);
  };
  return (
    <ConsoleFrame
      type="serial"
      start={start}
      tools={
        <button type="button" class="secondary" onClick={paste}>
          Paste
        </button>
      }
    />
  );
}
