import { describe, expect, it } from 'vitest';
import type { Instance } from '../../clients/typescript/index';
import { CONSOLE_CLOSE_CODES } from '../../src/domain/guest-console';
import { orderCatalog } from '../../web/src/lib/catalog';
import { closedMessage } from '../../web/src/lib/console-close';
import { browserName, taskText } from '../../web/src/lib/format';
import { placeProblem, problemOf } from '../../web/src/lib/problems';
import { filterServers, statusUpdates } from '../../web/src/lib/server-filter';
import { powerActions, statusLook } from '../../web/src/lib/status';
import { addStep } from '../../web/src/lib/step-thread';

const CREATE_FIELDS = ['planId', 'locationId', 'imageId', 'hostname', 'sshKeys', 'userData'];

describe('placing a refusal next to its field', () => {
  it('puts each field of INVALID_INPUT next to it, numbering lines of a list, and drops the generic message', () => {
    const placed = placeProblem(
      { code: 'INVALID_INPUT', message: 'The request body is invalid.', details: { fields: { hostname: 'must be a valid host name', 'sshKeys.1': 'must be an OpenSSH public key line' } } },
      CREATE_FIELDS,
    );
    expect(placed).toEqual({ fields: { hostname: 'must be a valid host name', sshKeys: 'line 2: must be an OpenSSH public key line' } });
  });

  it('puts refusals that name no field next to the field they are about', () => {
    expect(placeProblem({ code: 'QUOTA_EXCEEDED', message: 'This would exceed your vcpus quota.', details: { resource: 'vcpus' } }, CREATE_FIELDS)).toEqual({
      fields: { planId: 'This would exceed your vcpus quota.' },
    });
    expect(placeProblem({ code: 'IMAGE_SSH_KEY_REQUIRED', message: 'This image requires at least one SSH public key.' }, CREATE_FIELDS).fields).toEqual({
      sshKeys: 'This image requires at least one SSH public key.',
    });
    expect(placeProblem({ code: 'CAPACITY_UNAVAILABLE', message: 'No room.' }, CREATE_FIELDS).fields).toEqual({ locationId: 'No room.' });
  });

  it('keeps the message for the form when the field is not on it, or the code belongs to none', () => {
    expect(placeProblem({ code: 'RATE_LIMITED', message: 'At most 5 servers may be created per minute.' }, CREATE_FIELDS)).toEqual({ fields: {}, form: 'At most 5 servers may be created per minute.' });
    expect(placeProblem({ code: 'INVALID_INPUT', message: 'The request body is invalid.', details: { fields: { username: 'bad' } } }, CREATE_FIELDS)).toEqual({
      fields: {},
      form: 'The request body is invalid.',
    });
    expect(placeProblem({ code: 'QUOTA_EXCEEDED', message: 'Over quota.' }, ['url'])).toEqual({ fields: {}, form: 'Over quota.' });
  });

  it('reads the error envelope, and stands in for an answer without one', () => {
    expect(problemOf({ error: { code: 'CONFLICT', message: 'Taken.' } })).toEqual({ code: 'CONFLICT', message: 'Taken.' });
    expect(problemOf('<html>bad gateway</html>', 502)).toEqual({ code: 'UNAVAILABLE', message: 'The service answered 502. Please try again.' });
    expect(problemOf(undefined).message).toBe('The service could not be reached. Please try again.');
  });
});

const server = (hostname: string, status: Instance['status'], location = 'loc_a', ipv4: string | null = null): Instance =>
  ({ id: `inst_${hostname}`, hostname, status, location: { id: location, name: location }, ipv4, ipv6: null }) as Instance;

describe('the servers list', () => {
  const servers = [server('web-1', 'running', 'loc_a', '198.51.100.7'), server('db-1', 'stopped', 'loc_b'), server('web-2', 'failed', 'loc_b')];

  it('filters by status and location and searches host names and addresses, ignoring case', () => {
    expect(filterServers(servers, { status: 'running' }).map((s) => s.hostname)).toEqual(['web-1']);
    expect(filterServers(servers, { locationId: 'loc_b' }).map((s) => s.hostname)).toEqual(['db-1', 'web-2']);
    expect(filterServers(servers, { search: ' WEB ' }).map((s) => s.hostname)).toEqual(['web-1', 'web-2']);
    expect(filterServers(servers, { search: '100.7' }).map((s) => s.hostname)).toEqual(['web-1']);
    expect(filterServers(servers, { status: '', locationId: '', search: '' })).toHaveLength(3);
  });

  it('takes from the newest-first event feed the latest status of each server since the last event seen', () => {
    const feed = [
      { id: 'evt_4', instanceId: 'inst_web-1', data: { status: 'stopped' } },
      { id: 'evt_3', instanceId: 'inst_web-1', data: { status: 'stopping' } },
      { id: 'evt_2', instanceId: 'inst_db-1', data: { status: 'running' } },
      { id: 'evt_1', instanceId: 'inst_web-2', data: { status: 'failed' } },
    ];
    expect(statusUpdates(feed, 'evt_2')).toEqual(new Map([['inst_web-1', 'stopped']]));
    expect(statusUpdates(feed, 'evt_4')).toEqual(new Map());
    expect(statusUpdates(feed, undefined).size).toBe(3);
  });
});

describe('statuses and operations', () => {
  it('says every status in words and a symbol, not by colour alone', () => {
    expect(statusLook('running')).toEqual({ label: 'Running', tone: 'ok', symbol: '●' });
    expect(statusLook('rollback_failed')).toEqual({ label: 'Needs an operator', tone: 'bad', symbol: '✕' });
    expect(statusLook('provisioning').symbol).not.toBe(statusLook('stopped').symbol);
  });

  it('offers the power operations a status allows', () => {
    expect(powerActions('running')).toEqual(['shutdown', 'stop', 'reboot']);
    expect(powerActions('stopped')).toEqual(['start']);
    expect(powerActions('provisioning')).toEqual([]);
  });
});

describe('the step thread', () => {
  it('appends a streamed step once, even when a reconnect replays it', () => {
    const first = { step: 'clone > cloning the image', status: 'processing' as const, message: 'Creating the disk.' };
    const done = { ...first, status: 'success' as const, message: 'The disk is ready.' };
    const thread = addStep(addStep([], first), done);
    expect(addStep(thread, first)).toEqual([first, done]);
  });
});

describe('the create form', () => {
  it('orders plans smallest first and picks an image one can log in to, by password if any allows it', () => {
    const plans = [
      { id: 'p_large', name: 'large', vcpus: 4, memoryMiB: 8192, diskGiB: 40 },
      { id: 'p_small', name: 'small', vcpus: 1, memoryMiB: 1024, diskGiB: 10 },
    ];
    const images = [
      { id: 'i_appliance', name: 'appliance-no-login', loginMethods: [] },
      { id: 'i_ssh', name: 'debian-12-ssh-only', loginMethods: ['ssh'] },
      { id: 'i_rocky', name: 'rocky-9', loginMethods: ['password', 'ssh'] },
    ];
    const catalog = orderCatalog(plans, images, [{ id: 'l_b', name: 'b' }, { id: 'l_a', name: 'a' }]);
    expect(catalog.plans.map((p) => p.name)).toEqual(['small', 'large']);
    expect(catalog.defaults).toEqual({ planId: 'p_small', imageId: 'i_rocky', locationId: 'l_a' });
    expect(orderCatalog(plans, images.slice(0, 2), []).defaults.imageId).toBe('i_ssh');
  });
});

describe('words for machine values', () => {
  it('names browsers and task types', () => {
    expect(browserName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(browserName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1')).toBe('Safari on iOS');
    expect(browserName(null)).toBe('Unknown browser');
    expect(taskText('INSTANCE_CREATE')).toBe('create');
    expect(taskText('INSTANCE_POWER_STOP')).toBe('power stop');
  });
});

describe('why a guest console closed, in words', () => {
  it('has its own sentence for every close reason the API gives, and a fallback for a lost connection', () => {
    const messages = Object.entries(CONSOLE_CLOSE_CODES).map(([reason, code]) => closedMessage(code, reason));
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).not.toMatch(/\(/);
    expect(closedMessage(CONSOLE_CLOSE_CODES.instance_stopped, 'instance_stopped')).toBe('The server stopped. Start it to use its console again.');
    expect(closedMessage(CONSOLE_CLOSE_CODES.signed_out, 'signed_out')).toBe('You were signed out, so the console closed. Sign in again to reconnect.');
    expect(closedMessage(1006, '')).toBe('The connection to the console was lost. Please reconnect.');
  });
});
