import { describe, expect, it } from 'vitest';
import { decideLogin, type ImageLoginRules, type LoginRequest } from '../../src/domain/credentials-policy';
import { AppError, type ErrorCode } from '../../src/domain/errors';
import type { CredentialType, LoginMethod } from '../../src/generated/prisma/enums';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop';
const OTHER_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZq0f8qsP7wA0qkYlq7n2W7C8p4uJ8Ub3Q0VJ4R3c2d bob@desk';

const PASSWORD_ONLY: LoginMethod[] = ['password'];
const SSH_ONLY: LoginMethod[] = ['ssh'];
const BOTH: LoginMethod[] = ['password', 'ssh'];
const NONE: LoginMethod[] = [];

function image(overrides: Partial<ImageLoginRules> = {}): ImageLoginRules {
  return { loginMethods: BOTH, defaultUsername: null, rootAllowed: false, ...overrides };
}

function decide(request: Partial<LoginRequest>, rules: Partial<ImageLoginRules> = {}, planDefault: string | null = null, globalDefault = 'cloud') {
  return decideLogin({ sshKeys: [], ...request }, image(rules), planDefault, globalDefault);
}

/** Runs `fn` and returns the AppError it throws; fails the test when it throws nothing or something else. */
function rejection(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the decision to be refused');
}

function expectRefused(fn: () => unknown, code: ErrorCode): AppError {
  const error = rejection(fn);
  expect(error.code).toBe(code);
  return error;
}

describe('decideLogin: the username', () => {
  it('is the one the customer asked for, ahead of every default', () => {
    expect(decide({ username: 'alice' }, { defaultUsername: 'ubuntu' }, 'plan-user', 'cloud').username).toBe('alice');
  });

  it("falls back to the image's default when the customer names none", () => {
    expect(decide({}, { defaultUsername: 'ubuntu' }, 'plan-user', 'cloud').username).toBe('ubuntu');
  });

  it("falls back to the plan's default when the image has none", () => {
    expect(decide({}, { defaultUsername: null }, 'plan-user', 'cloud').username).toBe('plan-user');
  });

  it('falls back to the global default when neither image nor plan has one', () => {
    expect(decide({}, { defaultUsername: null }, null, 'cloud').username).toBe('cloud');
  });

  it('may be root when the image allows root login', () => {
    expect(decide({ username: 'root' }, { rootAllowed: true }).username).toBe('root');
    expect(decide({}, { rootAllowed: true, defaultUsername: 'root' }).username).toBe('root');
  });

  it('may not be root, asked for explicitly, when the image forbids root login; the error names the username field', () => {
    const error = expectRefused(() => decide({ username: 'root' }, { rootAllowed: false }), 'INVALID_INPUT');
    expect(error.status).toBe(400);
    expect(error.details).toMatchObject({ fields: { username: expect.any(String) } });
  });

  it('may not become root through any default when the image forbids root login', () => {
    expectRefused(() => decide({}, { rootAllowed: false, defaultUsername: 'root' }), 'INVALID_INPUT');
    expectRefused(() => decide({}, { rootAllowed: false }, 'root'), 'INVALID_INPUT');
    expectRefused(() => decide({}, { rootAllowed: false }, null, 'root'), 'INVALID_INPUT');
  });

  it('is not refused merely for resembling root', () => {
    expect(decide({ username: 'rooter' }, { rootAllowed: false }).username).toBe('rooter');
  });
});

describe('decideLogin: credential type against the image login methods', () => {
  type Outcome = CredentialType | ErrorCode;
  interface Case {
    requested: CredentialType | undefined;
    methods: LoginMethod[];
    keys: string[];
    outcome: Outcome;
  }

  const methodsName = (methods: LoginMethod[]) => (methods.length ? methods.join('+') : 'none');
  const keysName = (keys: string[]) => (keys.length ? 'with keys' : 'without keys');

  // Every requested type × every image × with and without keys.
  const cases: Case[] = [
    // PASSWORD
    { requested: 'PASSWORD', methods: PASSWORD_ONLY, keys: [], outcome: 'PASSWORD' },
    { requested: 'PASSWORD', methods: PASSWORD_ONLY, keys: [KEY], outcome: 'PASSWORD' },
    { requested: 'PASSWORD', methods: SSH_ONLY, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD', methods: SSH_ONLY, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD', methods: BOTH, keys: [], outcome: 'PASSWORD' },
    { requested: 'PASSWORD', methods: BOTH, keys: [KEY], outcome: 'PASSWORD' },
    { requested: 'PASSWORD', methods: NONE, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    // SSH_KEY
    { requested: 'SSH_KEY', methods: PASSWORD_ONLY, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'SSH_KEY', methods: PASSWORD_ONLY, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'SSH_KEY', methods: SSH_ONLY, keys: [], outcome: 'IMAGE_SSH_KEY_REQUIRED' },
    { requested: 'SSH_KEY', methods: SSH_ONLY, keys: [KEY], outcome: 'SSH_KEY' },
    { requested: 'SSH_KEY', methods: BOTH, keys: [], outcome: 'IMAGE_SSH_KEY_REQUIRED' },
    { requested: 'SSH_KEY', methods: BOTH, keys: [KEY], outcome: 'SSH_KEY' },
    { requested: 'SSH_KEY', methods: NONE, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    // PASSWORD_AND_SSH_KEY
    { requested: 'PASSWORD_AND_SSH_KEY', methods: PASSWORD_ONLY, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: PASSWORD_ONLY, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: SSH_ONLY, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: SSH_ONLY, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: BOTH, keys: [], outcome: 'IMAGE_SSH_KEY_REQUIRED' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: BOTH, keys: [KEY], outcome: 'PASSWORD_AND_SSH_KEY' },
    { requested: 'PASSWORD_AND_SSH_KEY', methods: NONE, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    // IMAGE_DEFINED: the image decides; keys are used whenever the image takes them.
    { requested: 'IMAGE_DEFINED', methods: PASSWORD_ONLY, keys: [], outcome: 'PASSWORD' },
    { requested: 'IMAGE_DEFINED', methods: PASSWORD_ONLY, keys: [KEY], outcome: 'PASSWORD' },
    { requested: 'IMAGE_DEFINED', methods: SSH_ONLY, keys: [], outcome: 'IMAGE_SSH_KEY_REQUIRED' },
    { requested: 'IMAGE_DEFINED', methods: SSH_ONLY, keys: [KEY], outcome: 'SSH_KEY' },
    { requested: 'IMAGE_DEFINED', methods: BOTH, keys: [], outcome: 'PASSWORD' },
    { requested: 'IMAGE_DEFINED', methods: BOTH, keys: [KEY], outcome: 'PASSWORD_AND_SSH_KEY' },
    { requested: 'IMAGE_DEFINED', methods: NONE, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: 'IMAGE_DEFINED', methods: NONE, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    // Omitted: the same as IMAGE_DEFINED.
    { requested: undefined, methods: PASSWORD_ONLY, keys: [], outcome: 'PASSWORD' },
    { requested: undefined, methods: PASSWORD_ONLY, keys: [KEY], outcome: 'PASSWORD' },
    { requested: undefined, methods: SSH_ONLY, keys: [], outcome: 'IMAGE_SSH_KEY_REQUIRED' },
    { requested: undefined, methods: SSH_ONLY, keys: [KEY], outcome: 'SSH_KEY' },
    { requested: undefined, methods: BOTH, keys: [], outcome: 'PASSWORD' },
    { requested: undefined, methods: BOTH, keys: [KEY], outcome: 'PASSWORD_AND_SSH_KEY' },
    { requested: undefined, methods: NONE, keys: [], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
    { requested: undefined, methods: NONE, keys: [KEY], outcome: 'IMAGE_LOGIN_METHOD_UNSUPPORTED' },
  ];

  const CREDENTIAL_TYPES: readonly string[] = ['PASSWORD', 'SSH_KEY', 'PASSWORD_AND_SSH_KEY', 'IMAGE_DEFINED'];

  const labelled = cases.map((c) => ({ ...c, label: `${c.requested ?? 'omitted'} on a ${methodsName(c.methods)} image ${keysName(c.keys)}` }));

  it.each(labelled)('$label → $outcome', ({ requested, methods, keys, outcome }) => {
    const run = () => decide({ credentialType: requested, sshKeys: keys }, { loginMethods: methods });
    if (CREDENTIAL_TYPES.includes(outcome)) {
      expect(run().credentialType).toBe(outcome);
    } else {
      const error = expectRefused(run, outcome as ErrorCode);
      expect(error.status).toBe(422);
    }
  });

  it('never decides IMAGE_DEFINED: the answer is always a concrete type', () => {
    for (const methods of [PASSWORD_ONLY, SSH_ONLY, BOTH]) {
      expect(decide({ credentialType: 'IMAGE_DEFINED', sshKeys: [KEY] }, { loginMethods: methods }).credentialType).not.toBe('IMAGE_DEFINED');
    }
  });

  it('refuses an image with no login method before looking at the username', () => {
    expectRefused(() => decide({ username: 'root' }, { loginMethods: NONE, rootAllowed: false }), 'IMAGE_LOGIN_METHOD_UNSUPPORTED');
  });
});

describe('decideLogin: what provisioning must prepare', () => {
  it('needs a password exactly for PASSWORD and PASSWORD_AND_SSH_KEY', () => {
    expect(decide({ credentialType: 'PASSWORD' }).needsPassword).toBe(true);
    expect(decide({ credentialType: 'PASSWORD_AND_SSH_KEY', sshKeys: [KEY] }).needsPassword).toBe(true);
    expect(decide({ credentialType: 'SSH_KEY', sshKeys: [KEY] }).needsPassword).toBe(false);
    expect(decide({ sshKeys: [KEY] }, { loginMethods: SSH_ONLY }).needsPassword).toBe(false);
    expect(decide({}, { loginMethods: PASSWORD_ONLY }).needsPassword).toBe(true);
  });

  it('installs every key given, in order, for key-based logins', () => {
    expect(decide({ credentialType: 'SSH_KEY', sshKeys: [KEY, OTHER_KEY] }).sshKeys).toEqual([KEY, OTHER_KEY]);
    expect(decide({ credentialType: 'PASSWORD_AND_SSH_KEY', sshKeys: [OTHER_KEY, KEY] }).sshKeys).toEqual([OTHER_KEY, KEY]);
  });

  it('installs no keys for a password-only login, even when keys were sent', () => {
    expect(decide({ credentialType: 'PASSWORD', sshKeys: [KEY] }).sshKeys).toEqual([]);
    expect(decide({ sshKeys: [KEY] }, { loginMethods: PASSWORD_ONLY }).sshKeys).toEqual([]);
  });

  it("returns a copy of the keys, not the caller's array", () => {
    const keys = [KEY];
    const decision = decide({ credentialType: 'SSH_KEY', sshKeys: keys });
    expect(decision.sshKeys).not.toBe(keys);
    decision.sshKeys.push(OTHER_KEY);
    expect(keys).toEqual([KEY]);
  });

  it('returns the whole decision in one object', () => {
    expect(decide({ sshKeys: [KEY] }, { loginMethods: BOTH, defaultUsername: 'debian' })).toEqual({
      username: 'debian',
      credentialType: 'PASSWORD_AND_SSH_KEY',
      needsPassword: true,
      sshKeys: [KEY],
    });
  });
});
