/**
 * SSH keys on the account over HTTP: saved, listed with their fingerprints and deleted by their
 * user alone; refused with stable codes when they are not one accepted public key; named by id in
 * a create or a rebuild, where another user's id is refused exactly like an unknown one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApiWithCustomer, type TestCustomer } from '../support/api';
import { sshPrivateKeyText, sshPublicKeyLine } from '../support/ssh-keys';

const { api, customer } = useTestApiWithCustomer();

const add = (token: string, body: unknown) => api.request('POST', '/v1/ssh-keys', { token, body });
const list = async (token: string) => {
  const res = await api.request('GET', '/v1/ssh-keys', { token });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; name: string; fingerprint: string; type: string; bits: number; publicKey: string }[];
};

describe('SSH keys on the account', () => {
  let other: TestCustomer;
  beforeAll(async () => {
    other = await api.createCustomer();
  });

  it('saves a key with its SHA256 fingerprint, type and size, lists it newest first, and audits it', async () => {
    const line = sshPublicKeyLine({ type: 'ed25519' }, 'laptop');
    const saved = await add(customer.token, { name: 'laptop', publicKey: `${line}\n` });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.data).toMatchObject({ name: 'laptop', publicKey: line, type: 'ed25519', bits: 256, fingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/) });
    const rsa = await add(customer.token, { name: 'old desktop', publicKey: sshPublicKeyLine({ type: 'rsa', bits: 3072 }) });
    expect(rsa.body.data).toMatchObject({ type: 'rsa', bits: 3072 });
    expect((await list(customer.token)).map((k) => k.name).slice(0, 2)).toEqual(['old desktop', 'laptop']);
    const audited = await api.db.auditEvent.findFirstOrThrow({ where: { action: 'ssh_key.added', actorUserId: customer.userId } });
    expect(audited.details).toMatchObject({ sshKeyId: expect.any(String), fingerprint: saved.body.data.fingerprint });
  });

  it('refuses a key the account holds already (409, naming it), whatever its comment; another user may hold it too', async () => {
    const line = sshPublicKeyLine({ type: 'ec', curve: 'P-384' }, 'first');
    const first = await add(customer.token, { name: 'ecdsa', publicKey: line });
    const again = await add(customer.token, { name: 'ecdsa again', publicKey: line.replace('first', 'second') });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'SSH_KEY_EXISTS', details: { sshKeyId: first.body.data.id } });
    expect((await add(other.token, { name: 'shared', publicKey: line })).status).toBe(201);
  });

  it.each([
    ['garbage', 'not a key at all, just some words typed by hand', 400, 'SSH_KEY_INVALID'],
    ['a private key', sshPrivateKeyText(), 400, 'SSH_KEY_INVALID'],
    ['two keys in one string', `${sshPublicKeyLine({ type: 'ed25519' })}\n${sshPublicKeyLine({ type: 'ed25519' })}`, 400, 'SSH_KEY_INVALID'],
    ['a DSA key', sshPublicKeyLine({ type: 'dsa' }), 422, 'SSH_KEY_TYPE_NOT_ALLOWED'],
    ['an RSA key of 1024 bits', sshPublicKeyLine({ type: 'rsa', bits: 1024 }), 422, 'SSH_KEY_TYPE_NOT_ALLOWED'],
  ])('refuses %s with a stable code, without repeating it', async (_what, publicKey, status, code) => {
    const res = await add(customer.token, { name: 'refused', publicKey });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.text).not.toContain(publicKey.slice(20, 60));
  });

  it('refuses a body without a name (400 INVALID_INPUT)', async () => {
    const res = await add(customer.token, { publicKey: sshPublicKeyLine({ type: 'ed25519' }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { fields: { name: expect.any(String) } } });
  });

  it("keeps each user's keys to that user: another user neither lists nor deletes them", async () => {
    const mine = await add(customer.token, { name: 'mine', publicKey: sshPublicKeyLine({ type: 'ed25519' }) });
    expect((await list(other.token)).map((k) => k.id)).not.toContain(mine.body.data.id);
    expect((await api.request('DELETE', `/v1/ssh-keys/${mine.body.data.id}`, { token: other.token })).status).toBe(404);
    expect((await api.request('DELETE', `/v1/ssh-keys/${mine.body.data.id}`, { token: customer.token })).status).toBe(204);
    expect((await list(customer.token)).map((k) => k.id)).not.toContain(mine.body.data.id);
    expect((await api.request('DELETE', `/v1/ssh-keys/${mine.body.data.id}`, { token: customer.token })).status).toBe(404);
    expect(await api.db.auditEvent.count({ where: { action: 'ssh_key.deleted', actorUserId: customer.userId } })).toBe(1);
  });

  it("refuses a create naming another user's key exactly as one naming no key at all", async () => {
    const seed = await api.seedDemo();
    if (!seed.seeded) throw new Error('the demo catalog was not seeded');
    const theirs = await add(other.token, { name: 'theirs', publicKey: sshPublicKeyLine({ type: 'ed25519' }) });
    const create = (sshKeyIds: string[]) =>
      api.request('POST', '/v1/instances', {
        token: seed.customerToken,
        body: { planId: seed.plans.small, locationId: seed.locationId, imageId: seed.images['debian-12'], hostname: 'keys', sshKeyIds },
      });
    const foreign = await create([theirs.body.data.id]);
    const unknown = await create(['sshk_doesnotexist']);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toEqual({ ...unknown.body.error, details: { fields: { 'sshKeyIds.0': 'no such SSH key' } } });
    expect(await api.db.instance.count({ where: { hostname: 'keys' } })).toBe(0);
  });
});
