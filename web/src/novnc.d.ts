/** The part of noVNC's RFB client (core/rfb.js, which ships no types) the screen page uses. */
declare module '@novnc/novnc' {
  export default class RFB extends EventTarget {
    constructor(target: HTMLElement, urlOrChannel: string | WebSocket, options?: { shared?: boolean; credentials?: { password?: string } });
    scaleViewport: boolean;
    resizeSession: boolean;
    focus(): void;
    disconnect(): void;
    sendCtrlAltDel(): void;
  }
}
