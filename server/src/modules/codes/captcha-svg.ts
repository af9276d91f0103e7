/**
 * Draws captcha pictures as SVG, with no font and no third-party service: each character is a
 * stroke glyph (polylines on a 4 x 6 grid) bent by its own random rotation, skew, scale and point
 * jitter, among crossing noise curves of the same stroke width. The characters never appear as
 * text in the SVG, only as path coordinates.
 */
import { randomInt } from 'node:crypto';

type Stroke = [number, number][];

/** The alphabet: no 0/O, 1/I, 9/g look-alikes, no lowercase. */
const GLYPHS: Record<string, Stroke[]> = {
  '2': [[[0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [0, 6], [4, 6]]],
  '3': [[[0, 0], [4, 0], [2, 2.5], [4, 3.5], [4, 5], [3, 6], [1, 6], [0, 5]]],
  '4': [[[3, 6], [3, 0], [0, 4], [4, 4]]],
  '5': [[[4, 0], [0, 0], [0, 3], [3, 2.5], [4, 3.5], [4, 5], [3, 6], [0, 6]]],
  '6': [[[4, 0], [1, 1], [0, 3], [0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [3, 3], [1, 3], [0, 4]]],
  '7': [[[0, 0], [4, 0], [1.5, 6]]],
  '8': [[[1, 3], [0, 2], [0, 1], [1, 0], [3, 0], [4, 1], [4, 2], [3, 3], [1, 3], [0, 4], [0, 5], [1, 6], [3, 6], [4, 5], [4, 4], [3, 3]]],
  A: [[[0, 6], [2, 0], [4, 6]], [[0.7, 4], [3.3, 4]]],
  C: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5]]],
  D: [[[0, 0], [0, 6], [3, 6], [4, 5], [4, 1], [3, 0], [0, 0]]],
  E: [[[4, 0], [0, 0], [0, 6], [4, 6]], [[0, 3], [3, 3]]],
  F: [[[4, 0], [0, 0], [0, 6]], [[0, 3], [3, 3]]],
  H: [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]],
  J: [[[4, 0], [4, 5], [3, 6], [1, 6], [0, 5]]],
  K: [[[0, 0], [0, 6]], [[4, 0], [0, 3.5]], [[1.2, 2.8], [4, 6]]],
  L: [[[0, 0], [0, 6], [4, 6]]],
  M: [[[0, 6], [0, 0], [2, 3], [4, 0], [4, 6]]],
  N: [[[0, 6], [0, 0], [4, 6], [4, 0]]],
  P: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]]],
  R: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]], [[2, 3], [4, 6]]],
  T: [[[0, 0], [4, 0]], [[2, 0], [2, 6]]],
  U: [[[0, 0], [0, 5], [1, 6], [3, 6], [4, 5], [4, 0]]],
  V: [[[0, 0], [2, 6], [4, 0]]],
  W: [[[0, 0], [1, 6], [2, 2], [3, 6], [4, 0]]],
  X: [[[0, 0], [4, 6]], [[4, 0], [0, 6]]],
  Y: [[[0, 0], [2, 3], [4, 0]], [[2, 3], [2, 6]]],
};

/** Characters a captcha is drawn from. */
export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');

/** Size of the picture, px. */
export const CAPTCHA_SIZE = { width: 150, height: 50 } as const;

/** A uniform random number in [a, b) from the system's CSPRNG. */
function rand(a: number, b: number): number {
  return a + (randomInt(0, 1_000_000) / 1_000_000) * (b - a);
}

function fmt(n: number): string {
  return n.toFixed(1);
}

/** `length` random characters of `CAPTCHA_ALPHABET`. */
export function randomCaptchaText(length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CAPTCHA_ALPHABET[randomInt(0, CAPTCHA_ALPHABET.length)];
  return out;
}

/** Draws `text` (characters of `CAPTCHA_ALPHABET`) as an SVG document. */
export function drawCaptcha(text: string): string {
  const { width, height } = CAPTCHA_SIZE;
  const parts: string[] = [];
  const hue = randomInt(0, 360);
  parts.push(`<rect width="${width}" height="${height}" fill="hsl(${hue},30%,94%)"/>`);
  const slot = (width - 16) / text.length;
  [...text].forEach((ch, i) => {
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`No captcha glyph for ${JSON.stringify(ch)}`);
    const sx = rand(4.2, 5.4);
    const sy = rand(5, 6.2);
    const angle = rand(-0.35, 0.35);
    const skew = rand(-0.25, 0.25);
    const ox = 8 + i * slot + rand(2, slot - 4 * sx - 1);
    const oy = rand(4, height - 6 * sy - 4);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const map = ([gx, gy]: [number, number]): string => {
      const x = (gx + rand(-0.25, 0.25) + skew * (gy - 3)) * sx;
      const y = (gy + rand(-0.25, 0.25)) * sy;
      const cx = 2 * sx;
      const cy = 3 * sy;
      return `${fmt(ox + cx + (x - cx) * cos - (y - cy) * sin)} ${fmt(oy + cy + (x - cx) * sin + (y - cy) * cos)}`;
    };
    const d = glyph.map((stroke) => `M${stroke.map(map).join('L')}`).join('');
    const colour = `hsl(${(hue + 180 + randomInt(-40, 40)) % 360},55%,${randomInt(25, 40)}%)`;
    parts.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="${fmt(rand(2, 2.8))}" stroke-linecap="round" stroke-linejoin="round"/>`);
  });
  // Noise: curves across the whole picture and short strokes, drawn like the characters.
  for (let i = 0; i < 4; i++) {
    const colour = `hsl(${(hue + randomInt(120, 240)) % 360},45%,${randomInt(30, 55)}%)`;
    parts.push(
      `<path d="M${fmt(rand(0, 20))} ${fmt(rand(5, height - 5))}Q${fmt(rand(40, 110))} ${fmt(rand(-20, height + 20))} ${fmt(rand(width - 20, width))} ${fmt(rand(5, height - 5))}" fill="none" stroke="${colour}" stroke-width="${fmt(rand(1.2, 2.4))}"/>`,
    );
  }
  for (let i = 0; i < 6; i++) {
    const x = rand(0, width);
    const y = rand(0, height);
    parts.push(`<path d="M${fmt(x)} ${fmt(y)}L${fmt(x + rand(-8, 8))} ${fmt(y + rand(-8, 8))}" stroke="hsl(${randomInt(0, 360)},40%,45%)" stroke-width="${fmt(rand(1.5, 2.5))}" stroke-linecap="round"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}
