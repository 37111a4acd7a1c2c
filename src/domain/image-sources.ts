/**
 * Rules of images built from a URL: the names we give their files and templates (our marker),
 * and what a checksum looks like.
 */

/** The line in a template's description that proves we made it for this build. */
export const imageTemplateMarker = (buildId: string) => `pvecp-image:${buildId}`;

export const isImageTemplateOf = (description: string, buildId: string) => description.split('\n').some((line) => line.trim() === imageTemplateMarker(buildId));

/** The prefix of every file we download for an image: a file named so is ours to remove. */
export const IMPORT_FILE_PREFIX = 'pvecp-';

/**
 * The file name of a version's download: our prefix, the version, and the format Proxmox reads
 * from the name (`.img`, as cloud images are often named, is qcow2; import takes no other name).
 */
export function importFilename(versionId: string, url: string): string {
  const path = new URL(url).pathname.toLowerCase();
  const format = /\.(raw|vmdk|qcow2)$/.exec(path)?.[1] ?? 'qcow2';
  return `${IMPORT_FILE_PREFIX}${versionId.replace(/_/g, '-')}.${format}`;
}

export const CHECKSUM_LENGTHS = { sha256: 64, sha512: 128 } as const;

export type ImageChecksumAlgorithm = keyof typeof CHECKSUM_LENGTHS;

/**
 * The checksum of `filename` in a `SHA256SUMS`-style file (`<hex>  <name>` or `<hex> *<name>`, or
 * BSD style `SHA256 (<name>) = <hex>`); null when the file does not list it.
 */
export function checksumFromList(text: string, filename: string, algorithm: ImageChecksumAlgorithm): string | null {
  const length = CHECKSUM_LENGTHS[algorithm];
  // Lists made with `sha256sum ./*` name their files `./<name>`.
  const named = (name: string) => name.replace(/^\.\//, '') === filename;
  for (const line of text.split('\n')) {
    const gnu = /^([0-9a-fA-F]+) [ *](.+)$/.exec(line.trim());
    if (gnu && named(gnu[2] as string) && gnu[1]?.length === length) return gnu[1].toLowerCase();
    const bsd = /^SHA(?:256|512) \((.+)\) = ([0-9a-fA-F]+)$/.exec(line.trim());
    if (bsd && named(bsd[1] as string) && bsd[2]?.length === length) return bsd[2].toLowerCase();
  }
  return null;
}

/** The file name a checksum list names an image by: the last segment of its URL's path. */
export function imageFileName(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    // A stray `%` is no escape: the name is as written.
    return segment;
  }
}
