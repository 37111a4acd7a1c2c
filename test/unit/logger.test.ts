import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger';

function capture() {
  const lines: string[] = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
  return { logger, text: () => lines.join('') };
}

describe('logs never carry secrets', () => {
  it('redacts secret-bearing keys at any of the first three levels', () => {
    const { logger, text } = capture();
    logger.info(
      {
        password: 'hunter2-top',
        params: { cipassword: 'hunter2-cloudinit', sshkeys: 'ssh-ed25519 AAAAkey' },
        connection: { tokenSecret: 'pve-token-secret', deep: { secretCipher: 'v1.cipher' } },
        BOOTSTRAP_ADMIN_TOKEN: 'admin-token-value',
        req: { headers: { authorization: 'Bearer customer-token' } },
      },
      'something happened',
    );
    const out = text();
    for (const secret of ['hunter2-top', 'hunter2-cloudinit', 'AAAAkey', 'pve-token-secret', 'v1.cipher', 'admin-token-value', 'customer-token']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
    expect(out).toContain('something happened');
  });

  it('keeps what is not secret', () => {
    const { logger, text } = capture();
    logger.info({ instanceId: 'inst_1', vmid: 1000, stage: 'clone' }, 'stage started');
    expect(JSON.parse(text())).toMatchObject({ instanceId: 'inst_1', vmid: 1000, stage: 'clone', msg: 'stage started' });
  });
});
