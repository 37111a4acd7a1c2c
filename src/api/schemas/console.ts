import { z } from 'zod';
import { CONSOLE_TYPES } from '../../domain/guest-console';

export const consoleRequestBody = z
  .strictObject({ type: z.enum(CONSOLE_TYPES).openapi({ description: '`vnc`: the screen; `serial`: the first serial port as a terminal.' }) })
  .openapi('ConsoleRequest');

export const consoleOfferView = z
  .object({
    url: z.string().openapi({ description: 'Opens the console page in a browser: `/console/{type}?instance=<id>#ticket=…` (the ticket rides in the fragment).' }),
    websocketUrl: z.string().openapi({
      description:
        'The same session for other clients: RFB 3.8 with security type None (vnc), or the terminal bytes as binary frames both ways plus text frames `{"type":"resize","cols":N,"rows":M}` (serial). ' +
        "A browser page may open it only from PUBLIC_URL's origin (another `Origin` is refused with 403); clients that send no `Origin` are let in. " +
        'The close reason says why the console ended; it also ends within seconds once the session or token that asked for it no longer signs requests in.',
    }),
    expiresAt: z.string().openapi({ format: 'date-time', description: 'Connect before this (at most 30 s); the ticket works once.' }),
  })
  .openapi('ConsoleOffer');
