import { describe, expect, it } from 'vitest';
import { consoleOpenerEndReason, type ConsoleOpenerNow } from '../../src/domain/guest-console';

const bySession: ConsoleOpenerNow = { userDisabled: false, sessionEnded: false, tokenEnded: null, passwordChangedSinceOpened: false, mayAccessServer: true };
const byToken: ConsoleOpenerNow = { ...bySession, sessionEnded: null, tokenEnded: false };

describe('why a console ends when its opener loses the right to it', () => {
  it('goes on while the session or token still signs requests in and the server is still theirs', () => {
    expect(consoleOpenerEndReason(bySession)).toBeUndefined();
    expect(consoleOpenerEndReason(byToken)).toBeUndefined();
  });

  it('names the cause: sign-out, a password change that ended the session, a disabled user, a revoked token, a server no longer theirs', () => {
    expect(consoleOpenerEndReason({ ...bySession, sessionEnded: true })).toBe('signed_out');
    expect(consoleOpenerEndReason({ ...bySession, sessionEnded: true, passwordChangedSinceOpened: true })).toBe('credentials_changed');
    expect(consoleOpenerEndReason({ ...byToken, tokenEnded: true })).toBe('token_revoked');
    expect(consoleOpenerEndReason({ ...bySession, mayAccessServer: false })).toBe('access_lost');
    // Disabling a user also ends their sessions: the disabling is the cause.
    expect(consoleOpenerEndReason({ ...bySession, userDisabled: true, sessionEnded: true, passwordChangedSinceOpened: true })).toBe('user_disabled');
    expect(consoleOpenerEndReason({ ...byToken, userDisabled: true })).toBe('user_disabled');
  });

  it('a password change leaves the session that made it, and API tokens, with their consoles', () => {
    expect(consoleOpenerEndReason({ ...bySession, passwordChangedSinceOpened: true })).toBeUndefined();
    expect(consoleOpenerEndReason({ ...byToken, passwordChangedSinceOpened: true })).toBeUndefined();
  });
});
