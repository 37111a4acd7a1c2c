// Smoke check of a running system (`npm start`): waits for the API to be ready, creates a server
// (with user data) as the demo customer and waits until it is running.
//   npx tsx scripts/smoke.ts [API URL] [token file] [timeout seconds]
import fs from 'node:fs';

const [api = 'http://127.0.0.1:3000', tokenFile = '.data/demo-customer-token', timeoutSeconds = '300'] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutSeconds) * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(1000);
  }
}

async function main(): Promise<void> {
  await until('the API to be ready', async () => (await fetch(`${api}/readyz`)).ok && fs.existsSync(tokenFile));
  const headers = { authorization: `Bearer ${fs.readFileSync(tokenFile, 'utf8').trim()}`, 'content-type': 'application/json' };
  interface Named {
    id: string;
    name: string;
  }
  const list = async (what: string): Promise<Named[]> => ((await (await fetch(`${api}/v1/${what}`, { headers })).json()) as { data: Named[] }).data;
  const [plans, locations, images] = await Promise.all([list('plans'), list('locations'), list('images')]);
  const created = await fetch(`${api}/v1/instances`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `smoke-${Date.now()}` },
    body: JSON.stringify({
      planId: plans.find((p) => p.name === 'small')?.id,
      locationId: locations[0]?.id,
      imageId: images.find((i) => i.name === 'debian-12')?.id,
      hostname: 'smoke-1',
      // The demo location has a snippets storage: the user data reaches the guest.
      userData: '#cloud-config\npackages: [htop]\n',
    }),
  });
  const body = (await created.json()) as { data: { id: string } };
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${JSON.stringify(body)}`);
  const instance = await until('the server to run', async () => {
    const current = ((await (await fetch(`${api}/v1/instances/${body.data.id}`, { headers })).json()) as { data: { status: string; hostname: string } }).data;
    return ['running', 'failed'].includes(current.status) ? current : undefined;
  });
  if (instance.status !== 'running') {
    console.error(`smoke: provision ended ${instance.status}: ${JSON.stringify(instance)}`);
    process.exit(1);
  }
  console.log(`smoke: ${instance.hostname} is ${instance.status}`);
}

void main().catch((error: unknown) => {
  console.error(`smoke: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
