import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../clients/typescript/index';
import { api, outcome } from '../../api';
import { Alert, described, Field, Table } from '../../components/ui';
import type { Problem } from '../../lib/problems';

type Image = components['schemas']['AdminImage'];
type Build = Image['builds'][number];

const EMPTY = { name: '', os: '', version: '', defaultUsername: '', url: '', checksum: '', checksumUrl: '', checksumAlgorithm: 'sha256' as 'sha256' | 'sha512', refreshEvery: '', storage: '' };

/** A build's state in words: importing with the download's progress, ready, or failed with its code. */
function buildState(build: Build): string {
  if (build.retiredAt) return '○ removed';
  if (build.state === 'ready') return '● ready';
  if (build.state === 'failed') return `✕ failed: ${build.errorCode ?? 'unknown'}`;
  return build.progress === null ? '◐ importing' : `◐ importing, download ${build.progress}%`;
}

/** Registers an image from a URL, and shows each image's builds per node while it is built. */
export function ImagesFromUrl({ images, reload }: { images: Image[]; reload: () => Promise<void> }) {
  const [draft, setDraft] = useState(EMPTY);
  const [problem, setProblem] = useState<Problem>();
  const set = (change: Partial<typeof EMPTY>) => setDraft((previous) => ({ ...previous, ...change }));
  // A new image has no builds until its workflow has read the nodes; then they import.
  const building = images.some((image) => image.source && !image.archivedAt && (image.builds.length === 0 || image.builds.some((b) => b.state === 'importing')));
  // While a build runs (or is about to), its state and progress are read again every two seconds.
  useEffect(() => {
    if (!building) return undefined;
    const timer = setInterval(() => void reload(), 2000);
    return () => clearInterval(timer);
  }, [building]);

  const register = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    const answer = await outcome(
      api.POST('/v1/admin/images', {
        body: {
          name: draft.name,
          os: draft.os,
          version: draft.version,
          loginMethods: ['password', 'ssh'],
          rootAllowed: false,
          ...(draft.defaultUsername ? { defaultUsername: draft.defaultUsername } : {}),
          source: {
            url: draft.url,
            // The API takes exactly one of the two: a list given wins, so a field left empty is not sent.
            ...(draft.checksumUrl ? { checksumUrl: draft.checksumUrl } : { checksum: draft.checksum }),
            checksumAlgorithm: draft.checksumAlgorithm,
            ...(draft.storage ? { storage: draft.storage } : {}),
          },
          ...(draft.refreshEvery ? { refreshSchedule: { every: draft.refreshEvery } } : {}),
        },
      }),
    );
    if (!answer.ok) return setProblem(answer.problem);
    setDraft(EMPTY);
    await reload();
  };

  const text = (key: 'name' | 'os' | 'version' | 'defaultUsername' | 'url' | 'checksum' | 'checksumUrl' | 'refreshEvery' | 'storage', label: string, hint?: string) => (
    <Field id={`image-${key}`} label={label} hint={hint}>
      <input {...described(`image-${key}`, undefined, hint)} value={draft[key]} onInput={(e) => set({ [key]: (e.target as HTMLInputElement).value })} />
    </Field>
  );
  return (
    <div class="panel">
      <h2>Images from a URL</h2>
      <form onSubmit={register}>
        {text('name', 'Name')}
        {text('os', 'OS')}
        {text('version', 'Version')}
        {text('defaultUsername', 'Default user')}
        {text('url', 'Image URL', 'A cloud image (qcow2, raw or vmdk) each Proxmox VE node downloads itself.')}
        {text('checksumUrl', 'Checksum URL', 'The mirror’s SHA256SUMS or SHA512SUMS: the line of the image’s file is read from it, again at every refresh.')}
        {text('checksum', 'Checksum', 'Or the checksum itself, when there is no checksum URL.')}
        <Field id="image-algorithm" label="Checksum algorithm">
          <select id="image-algorithm" value={draft.checksumAlgorithm} onChange={(e) => set({ checksumAlgorithm: (e.target as HTMLSelectElement).value as 'sha256' | 'sha512' })}>
            <option value="sha256">sha256</option>
            <option value="sha512">sha512</option>
          </select>
        </Field>
        {text('storage', 'Download storage (optional)', 'A storage taking content type import; by default a shared one where there is one.')}
        {text('refreshEvery', 'Refresh every (optional)', 'With a checksum URL: read it again every 24h, 7d, …; a changed checksum builds a new version.')}
        <Alert problem={problem} />
        <button type="submit">Register image</button>
      </form>
      {images
        .filter((image) => image.source)
        .map((image) => (
          <Table caption={`${image.name} · ${image.source?.url ?? ''}${image.refreshSchedule ? ` · refreshed every ${image.refreshSchedule.every}` : ''}`} columns={['Node', 'Version', 'State', 'Template']}>
            {image.builds.map((build) => (
              <tr data-build={`${image.name}/${build.node}/${build.version}`}>
                <td data-label="Node">{build.node}</td>
                <td data-label="Version">v{build.version}</td>
                <td data-label="State" title={build.errorMessage ?? undefined}>
                  {buildState(build)}
                </td>
                <td data-label="Template">{build.templateVmid ?? '—'}</td>
              </tr>
            ))}
          </Table>
        ))}
    </div>
  );
}
