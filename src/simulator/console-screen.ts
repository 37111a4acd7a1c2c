/**
 * What a simulated guest's screen shows: text lines drawn with a small 3x5 pixel font, scaled up,
 * as 32-bit pixels (the RFB server converts them to the client's pixel format).
 */

/** Each glyph: five rows of three pixels, top to bottom. */
const GLYPHS: Record<string, string> = {
  A: '010101111101101', B: '110101110101110', C: '011100100100011', D: '110101101101110', E: '111100110100111',
  F: '111100110100100', G: '011100101101011', H: '101101111101101', I: '111010010010111', J: '001001001101010',
  K: '101101110101101', L: '100100100100111', M: '101111111101101', N: '110101101101101', O: '010101101101010',
  P: '110101110100100', Q: '010101101110011', R: '110101110101101', S: '011100010001110', T: '111010010010010',
  U: '101101101101111', V: '101101101101010', W: '101101111111101', X: '101101010101101', Y: '101101010010010',
  Z: '111001010100111', '0': '111101101101111', '1': '010110010010111', '2': '110001010100111', '3': '110001010001110',
  '4': '101101111001001', '5': '111100110001110', '6': '011100111101111', '7': '111001010010010', '8': '111101111101111',
  '9': '111101111001110', '-': '000000111000000', '.': '000000000000010', ':': '000010000010000', '_': '000000000000111',
  '/': '001001010100100', ' ': '000000000000000',
};

export const SCREEN_WIDTH = 640;
export const SCREEN_HEIGHT = 400;
const SCALE = 4;
const BACKGROUND = [0x10, 0x10, 0x18] as const;
const FOREGROUND = [0xd0, 0xd0, 0xd0] as const;

/** The screen as RGB triplets, row by row. */
export function drawScreen(lines: string[]): Uint8Array {
  const rgb = new Uint8Array(SCREEN_WIDTH * SCREEN_HEIGHT * 3);
  for (let i = 0; i < SCREEN_WIDTH * SCREEN_HEIGHT; i++) rgb.set(BACKGROUND, i * 3);
  lines.forEach((line, row) => {
    [...line.toUpperCase()].forEach((ch, col) => {
      const glyph = GLYPHS[ch] ?? GLYPHS['_'] as string;
      const x0 = 8 + col * 4 * SCALE;
      const y0 = 8 + row * 7 * SCALE;
      for (let gy = 0; gy < 5; gy++)
        for (let gx = 0; gx < 3; gx++) {
          if (glyph[gy * 3 + gx] !== '1') continue;
          for (let dy = 0; dy < SCALE; dy++)
            for (let dx = 0; dx < SCALE; dx++) {
              const x = x0 + gx * SCALE + dx;
              const y = y0 + gy * SCALE + dy;
              if (x < SCREEN_WIDTH && y < SCREEN_HEIGHT) rgb.set(FOREGROUND, (y * SCREEN_WIDTH + x) * 3);
            }
        }
    });
  });
  return rgb;
}
