/**
 * Every request the client sends must be valid for BOTH supported Proxmox VE releases,
 * checked against the official API schema.
 */
import { describe, expect, it } from 'vitest';
import { PVE_VERSIONS, loadSchema, type PveVersion } from '../../src/simulator';
import { startSim } from '../simulator/support';

/** Runs every client method once, against a simulator validating with `version`. */
async function exerciseClient(version: PveVersion) {
  const h = await startSim({ pveVersion: version });
  const { client, wait } = h;
  try {
    await client.guests.list();
    await client.cluster.identity();
    await client.firewall.clusterOptions();
    await client.cluster.isVmidFree(200);
    await client.cluster.isVmidFree(9000);
    await client.cluster.nodes();
    await client.cluster.nodeStatus('pve1');
    await client.cluster.version();
    await client.access.privilegesOn('/vms/9000');
    await client.storage.list('pve1');
    await client.storage.images('pve1', 'local-lvm', 9000);
    await wait(await client.guests.clone('pve1', 9000, { newid: 200, name: 'contract', full: true, storage: 'local-lvm', description: 'made by a test', pool: 'customers' }));
    await wait(await client.guests.clone('pve1', 9000, { newid: 201, name: 'contract-linked', full: false }));
    const cfg = await client.guestConfig.get('pve1', 200);
    const upid = await client.guestConfig.set('pve1', 200, {
      cores: 2,
      sockets: 1,
      memory: 2048,
      cpu: 'x86-64-v2-AES',
      net0: 'virtio,bridge=vmbr0,tag=12',
      digest: String(cfg.digest),
    });
    if (upid) await wait(upid);
    await client.guestConfig.setSync('pve1', 200, {
      ciuser: 'ops',
      cipassword: 'pw',
      sshkeys: 'ssh-ed25519 AAAA a@b\n',
      ipconfig0: 'ip=198.51.100.7/24,gw=198.51.100.1',
      ipconfig1: 'ip6=2001:db8::7/64,gw6=2001:db8::1',
      nameserver: '198.51.100.53 2001:db8::53',
      searchdomain: 'example.net',
      tags: 'a;b',
      description: 'x',
      agent: 'enabled=1',
      onboot: true,
      boot: 'order=scsi0;net0',
      delete: 'vga',
    });
    const r = await client.guestConfig.resizeDisk('pve1', 200, 'scsi0', 10);
    if (r) await wait(r);
    await wait(await client.guests.start('pve1', 200));
    await client.guests.status('pve1', 200);
    await client.firewall.guestOptions('pve1', 200);
    await client.firewall.ipsetEntries('pve1', 200, 'ipfilter-net0');
    await client.firewall.createIpset('pve1', 200, 'ipfilter-net0', 'anti-spoofing');
    await client.firewall.addIpsetEntry('pve1', 200, 'ipfilter-net0', '198.51.100.7');
    await client.firewall.addIpsetEntry('pve1', 200, 'ipfilter-net0', '2001:db8::7');
    await client.firewall.removeIpsetEntry('pve1', 200, 'ipfilter-net0', '2001:db8::7');
    await client.firewall.ipsetEntries('pve1', 200, 'ipfilter-net0');
    await client.firewall.setGuestOptions('pve1', 200, { enable: 1, ipfilter: 1, macfilter: 1, policy_in: 'ACCEPT' });
    await client.guests.pingAgent('pve1', 200);
    await client.guests.usage('pve1', 200, 'hour');
    await client.guests.usage('pve1', 200, 'week', 'MAX');
    await client.consoles.vncProxy('pve1', 200);
    await wait(await client.guests.reboot('pve1', 200));
    await wait(await client.guests.shutdown('pve1', 200, { timeoutSeconds: 60, forceStop: true }));
    await wait(await client.guests.start('pve1', 200));
    await wait(await client.guests.migrate('pve1', 200, { target: 'pve2', online: true, withLocalDisks: true }));
    await wait(await client.guests.stop('pve2', 200));
    await client.tasks.list('pve1', { typefilter: 'qmclone', vmid: 9000, source: 'all', limit: 10 });
    await wait(await client.snapshots.create('pve2', 200, { name: 'contract-snap', description: 'before', vmstate: false }));
    await client.snapshots.list('pve2', 200);
    await wait(await client.snapshots.rollback('pve2', 200, 'contract-snap'));
    await wait(await client.snapshots.delete('pve2', 200, 'contract-snap'));
    const dump = await client.backups.create('pve2', 200, { storage: 'local', mode: 'snapshot', compress: 'zstd', notesTemplate: 'pvecp {{vmid}}', protected: true, lockwait: 5 });
    await wait(dump);
    await client.tasks.log(dump);
    const [archive] = await client.backups.list('pve2', 'local', 200);
    await client.backups.update('pve2', archive!.volid, { notes: 'kept', protected: false });
    await wait(await client.backups.restore('pve2', 200, { archive: archive!.volid, force: true, storage: 'local-lvm', unique: false, start: false }));
    await wait(await client.backups.delete('pve2', archive!.volid));
    await client.tasks.status(await client.guests.delete('pve2', 200));
    return { requests: [...h.sim.requests], calls: new Map(h.sim.calls) };
  } finally {
    await h.close();
  }
}

describe('client ↔ official API schema contract', () => {
  for (const simVersion of PVE_VERSIONS) {
    it(`every request sent to a ${simVersion} simulator is valid for PVE ${PVE_VERSIONS.join(' and ')}`, async () => {
      const { requests } = await exerciseClient(simVersion);
      const templates = new Set(requests.map((r) => `${r.method} ${r.template}`));
      // each client method reached the simulator
      for (const call of [
        'GET /cluster/resources',
        'GET /cluster/status',
        'GET /cluster/firewall/options',
        'GET /nodes/{node}/qemu/{vmid}/firewall/options',
        'PUT /nodes/{node}/qemu/{vmid}/firewall/options',
        'GET /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}',
        'POST /nodes/{node}/qemu/{vmid}/firewall/ipset',
        'POST /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}',
        'DELETE /nodes/{node}/qemu/{vmid}/firewall/ipset/{name}/{cidr}',
        'GET /cluster/nextid',
        'GET /version',
        'GET /access/permissions',
        'GET /nodes',
        'GET /nodes/{node}/status',
        'GET /nodes/{node}/storage',
        'GET /nodes/{node}/storage/{storage}/content',
        'POST /nodes/{node}/qemu/{vmid}/clone',
        'GET /nodes/{node}/qemu/{vmid}/config',
        'POST /nodes/{node}/qemu/{vmid}/config',
        'PUT /nodes/{node}/qemu/{vmid}/config',
        'PUT /nodes/{node}/qemu/{vmid}/resize',
        'POST /nodes/{node}/qemu/{vmid}/status/start',
        'POST /nodes/{node}/qemu/{vmid}/status/stop',
        'POST /nodes/{node}/qemu/{vmid}/status/shutdown',
        'POST /nodes/{node}/qemu/{vmid}/status/reboot',
        'GET /nodes/{node}/qemu/{vmid}/status/current',
        'POST /nodes/{node}/qemu/{vmid}/migrate',
        'DELETE /nodes/{node}/qemu/{vmid}',
        'POST /nodes/{node}/qemu/{vmid}/agent/ping',
        'GET /nodes/{node}/qemu/{vmid}/rrddata',
        'POST /nodes/{node}/qemu/{vmid}/vncproxy',
        'GET /nodes/{node}/tasks',
        'GET /nodes/{node}/tasks/{upid}/status',
        'GET /nodes/{node}/tasks/{upid}/log',
        'GET /nodes/{node}/qemu/{vmid}/snapshot',
        'POST /nodes/{node}/qemu/{vmid}/snapshot',
        'POST /nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback',
        'DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}',
        'POST /nodes/{node}/vzdump',
        'PUT /nodes/{node}/storage/{storage}/content/{volume}',
        'DELETE /nodes/{node}/storage/{storage}/content/{volume}',
        'POST /nodes/{node}/qemu',
      ]) {
        expect(templates, call).toContain(call);
      }
      for (const version of PVE_VERSIONS) {
        const schema = loadSchema(version);
        for (const r of requests) {
          const verdict = schema.validateRequest(r.method, r.path, r.params);
          expect(verdict, `${version}: ${r.method} ${r.path} ${JSON.stringify(r.params)}`).toMatchObject({ ok: true });
        }
      }
    });
  }

  it('asynchronous calls are the ones the schema says return a task id', () => {
    for (const version of PVE_VERSIONS) {
      const schema = loadSchema(version);
      for (const [verb, path] of [
        ['POST', '/nodes/n/qemu/100/clone'],
        ['POST', '/nodes/n/qemu/100/config'],
        ['PUT', '/nodes/n/qemu/100/resize'],
        ['POST', '/nodes/n/qemu/100/status/start'],
        ['DELETE', '/nodes/n/qemu/100'],
        ['POST', '/nodes/n/qemu/100/migrate'],
        ['POST', '/nodes/n/qemu/100/snapshot'],
        ['POST', '/nodes/n/qemu/100/snapshot/s1/rollback'],
        ['DELETE', '/nodes/n/qemu/100/snapshot/s1'],
        ['POST', '/nodes/n/vzdump'],
        ['POST', '/nodes/n/qemu'],
        ['DELETE', '/nodes/n/storage/local/content/local:backup%2Fx.vma'],
      ] as const) {
        expect(schema.match(verb, path)?.method?.returnsType, `${version} ${verb} ${path}`).toBe('string');
      }
      expect(schema.match('PUT', '/nodes/n/qemu/100/config')?.method?.returnsType).toBe('null');
    }
  });
});
