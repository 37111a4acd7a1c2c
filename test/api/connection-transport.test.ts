import { beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator/server';
import { useTestApiWithCustomer } from '../support/api';

const { api, admin } = useTestApiWithCustomer();

const TOKEN = { tokenId: 'controlplane@pve!provisioner', tokenSecret: 'c4b0f1e2-9a7d-4e3b-8f6a-1d2c3b4a5e6f' };
let simulatorUrl = '';
beforeAll(async () => {
  const listening = await createSimulator({ extraTokens: [`${TOKEN.tokenId}=${TOKEN.tokenSecret}`] }).listen(0, '127.0.0.1');
  simulatorUrl = listening.url;
  return listening.close;
});

const body = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name,
  url,
  ...TOKEN,
  vmidRange: { start: 1000 + name.length * 100, end: 1000 + name.length * 100 + 99 },
  nodes: [{ name: 'pve1', vcpus: 8, memoryMiB: 8192, diskGiB: 100 }],
  ...extra,
});

describe('a connection reaches Proxmox VE over https unless it is a plaintext lab', () => {
  it('refuses an http:// URL without plaintextLab, before calling it and before saving anything', async () => {
    for (const extra of [{}, { plaintextLab: false }]) {
      const res = await api.request('POST', '/v1/admin/connections', { ...admin, body: body('lab-refused', simulatorUrl, extra) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.details.fields.url).toMatch(/must be https/);
      expect(res.text).not.toContain(TOKEN.tokenSecret);
    }
    expect(await api.db.proxmoxConnection.count({ where: { name: 'lab-refused' } })).toBe(0);
  });

  it('accepts it as a plaintext lab endpoint and shows it so', async () => {
    const res = await api.request('POST', '/v1/admin/connections', { ...admin, body: body('lab', simulatorUrl, { plaintextLab: true }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ url: simulatorUrl, plaintextLab: true });
    const listed = (await api.request('GET', '/v1/admin/connections', admin)).body.data.find((c: { id: string }) => c.id === res.body.data.id);
    expect(listed.plaintextLab).toBe(true);
  });

  it('takes https by default (an unreachable one answers 503, nothing saved)', async () => {
    const res = await api.request('POST', '/v1/admin/connections', { ...admin, body: body('tls-only', 'https://127.0.0.1:1') });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('documents plaintextLab in the OpenAPI document', async () => {
    const doc = (await api.request('GET', '/openapi.json')).body;
    expect(doc.components.schemas.CreateConnection.properties.plaintextLab.type).toBe('boolean');
    expect(doc.components.schemas.AdminConnection.properties.plaintextLab.type).toBe('boolean');
  });
});
