interface Sized {
  id: string;
  name: string;
  vcpus: number;
  memoryMiB: number;
  diskGiB: number;
}
interface Named {
  id: string;
  name: string;
}
interface Loginable extends Named {
  loginMethods: string[];
}

const byName = (a: Named, b: Named) => a.name.localeCompare(b.name);

/**
 * The create form's choices in a useful order (plans smallest first, the rest by name) and its
 * defaults: the smallest plan, the first location, and the first image one can log in to,
 * by password if any offers it (an image with no login method is always refused).
 */
export function orderCatalog<P extends Sized, I extends Loginable, L extends Named>(plans: P[], images: I[], locations: L[]) {
  const orderedPlans = [...plans].sort((a, b) => a.vcpus - b.vcpus || a.memoryMiB - b.memoryMiB || a.diskGiB - b.diskGiB || byName(a, b));
  const orderedImages = [...images].sort(byName);
  const orderedLocations = [...locations].sort(byName);
  const image = orderedImages.find((i) => i.loginMethods.includes('password')) ?? orderedImages.find((i) => i.loginMethods.length > 0) ?? orderedImages[0];
  return {
    plans: orderedPlans,
    images: orderedImages,
    locations: orderedLocations,
    defaults: { planId: orderedPlans[0]?.id ?? '', imageId: image?.id ?? '', locationId: orderedLocations[0]?.id ?? '' },
  };
}
