/**
 * The demo image built from a URL at `npm start`'s first start: the demo simulator's image server
 * (scripts/demo-simulator.ts) serves a cloud image and its SHA256SUMS, and the image is registered
 * through the API, as an operator would (POST /v1/admin/images, the same service), its checksum
 * read from the list. Once: a later start finds the name taken (also after the image was deleted,
 * which archives it) and registers nothing.
 */
import { DEFAULT_IMAGE } from '../src/simulator/image-server';

export const DEMO_URL_IMAGE_NAME = 'demo-cloud-from-url';

/** Registers the demo URL image unless an image of its name exists; answers whether this call registered it. */
export async function registerDemoImage(apiUrl: string, adminToken: string, imagesUrl: string): Promise<boolean> {
  const folder = DEFAULT_IMAGE.path.slice(0, DEFAULT_IMAGE.path.lastIndexOf('/'));
  const response = await fetch(`${apiUrl}/v1/admin/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: DEMO_URL_IMAGE_NAME,
      os: 'debian',
      version: '12',
      loginMethods: ['password', 'ssh'],
      defaultUsername: 'debian',
      rootAllowed: false,
      source: { url: `${imagesUrl}${DEFAULT_IMAGE.path}`, checksumUrl: `${imagesUrl}${folder}/SHA256SUMS`, checksumAlgorithm: 'sha256' },
    }),
  });
  if (response.status === 201) return true;
  const answer = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (response.status === 409 && answer.error?.code === 'CONFLICT') return false;
  throw new Error(`the demo image could not be registered: ${response.status} ${answer.error?.code ?? ''} ${answer.error?.message ?? ''}`.trim());
}
