/** The part of des.js (no bundled types) the VNC authentication uses. */
declare module 'des.js' {
  interface Cipher {
    update(data: Uint8Array | number[]): number[];
  }
  export const DES: { create(options: { type: 'encrypt' | 'decrypt'; key: Uint8Array | number[] }): Cipher };
}
