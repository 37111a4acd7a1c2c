/** What a person reads when the console closed, by the close reason the API gives (docs/api.md). */
const CLOSED_BECAUSE: Record<string, string> = {
  client_closed: 'The console was closed.',
  shutting_down: 'The console service is restarting. Reconnect in a moment.',
  ticket_invalid: 'This console link was already used or has expired. Reconnect to open a fresh one.',
  instance_stopped: 'The server stopped. Start it to use its console again.',
  instance_deleted: 'The server was deleted.',
  instance_rebuilt: 'The server is being rebuilt. Reconnect once it is running again.',
  instance_migrated: 'The server moved to another host. Reconnect to follow it.',
  max_duration: 'The console was open for the longest time allowed. Reconnect to continue.',
  idle_timeout: 'The console closed after a while without input. Reconnect to continue.',
  console_unavailable: 'The server\'s console could not be reached. Please reconnect.',
  protocol_error: 'The console received something it did not understand and closed.',
  signed_out: 'You were signed out, so the console closed. Sign in again to reconnect.',
  credentials_changed: 'The password of this account was changed, so the console closed. Sign in with the new password to reconnect.',
  user_disabled: 'This account was disabled, so the console closed.',
  token_revoked: 'The API token this console was opened with was revoked or has expired.',
  access_lost: 'This account no longer has access to the server, so the console closed.',
};

export function closedMessage(code: number, reason: string): string {
  return CLOSED_BECAUSE[reason] ?? (code === 1006 ? 'The connection to the console was lost. Please reconnect.' : `The console closed (${reason || code}).`);
}
