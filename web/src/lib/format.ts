export const gib = (mib: number) => (mib % 1024 === 0 ? `${mib / 1024} GiB` : `${(mib / 1024).toFixed(1)} GiB`);

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** What a plan gives, in one line. */
export const planText = (plan: { name: string; vcpus: number; memoryMiB: number; diskGiB: number }) =>
  `${plan.name} — ${plan.vcpus} vCPU, ${gib(plan.memoryMiB)} memory, ${plan.diskGiB} GiB disk`;

/** A browser's user agent as a person would name it: "Chrome on Linux". */
export function browserName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : 'A browser';
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

/** A task's type as words: `INSTANCE_CREATE` reads "create". */
export const taskText = (type: string) => type.replace(/^INSTANCE_/, '').replace(/_/g, ' ').toLowerCase();
