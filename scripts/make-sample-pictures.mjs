// Draws the pictures of the six sample projects (apps/api/assets/sample-projects/<slug>-<n>.jpg): architectural
// illustrations made for Terrafund, written as SVG here and rendered to JPEG with sharp. Nothing is downloaded;
// the same seed always draws the same picture, so running this again reproduces the committed files.
// Usage: node scripts/make-sample-pictures.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const W = 1600;
const H = 1000;
const OUT = path.resolve(import.meta.dirname, '../apps/api/assets/sample-projects');

/**
 * mulberry32: a small seeded generator, so every picture is reproducible.
 * @param {number} seed
 */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** @type {(min: number, max: number) => number} */
    range: (min, max) => min + next() * (max - min),
    /** @type {(min: number, max: number) => number} */
    int: (min, max) => Math.floor(min + next() * (max - min + 1)),
    /** @type {<T>(list: readonly T[]) => T} */
    pick: (list) => /** @type {(typeof list)[number]} */ (list[Math.floor(next() * list.length)]),
    /** @type {(p: number) => boolean} */
    chance: (p) => next() < p,
  };
}

/** @typedef {ReturnType<typeof rng>} Rand */

/** @param {number} n */
const r1 = (n) => Math.round(n * 10) / 10;

/**
 * @typedef {{
 *   sky: [string, string, string];
 *   sun?: { x: number; y: number; r: number; color: string; glow: string };
 *   moon?: { x: number; y: number; r: number };
 *   light: number;
 *   lit: number;
 *   haze: string;
 *   water: [string, string];
 * }} Mood
 */

/**
 * Times of day: sky gradient, sun, light on façades, whether windows are lit.
 * @satisfies {Record<string, Mood>}
 */
const MOODS = {
  day: { sky: ['#5b9bd5', '#9cc7ea', '#dbeefa'], sun: { x: 1250, y: 170, r: 60, color: '#fff6d5', glow: '#fff3c4' }, light: 1, lit: 0.05, haze: '#e8f2fa', water: ['#4f86b8', '#2e5f8a'] },
  golden: { sky: ['#f0a35e', '#f6c987', '#fbe7c2'], sun: { x: 380, y: 300, r: 70, color: '#fff0c9', glow: '#ffd28a' }, light: 0.9, lit: 0.15, haze: '#f7dcb6', water: ['#c98c5a', '#6a5a6b'] },
  sunset: { sky: ['#3b3f7a', '#c7607a', '#f7b36b'], sun: { x: 820, y: 560, r: 80, color: '#ffe2a8', glow: '#ff9d6b' }, light: 0.7, lit: 0.45, haze: '#e7a07e', water: ['#8a5b7a', '#2f3a63'] },
  dusk: { sky: ['#141b3d', '#33407a', '#8a6f9e'], moon: { x: 1320, y: 150, r: 34 }, light: 0.45, lit: 0.75, haze: '#5a5888', water: ['#2b3563', '#121a38'] },
  morning: { sky: ['#8fb5d9', '#f2c6a5', '#fde9d0'], sun: { x: 240, y: 420, r: 65, color: '#fff4dc', glow: '#ffd9ad' }, light: 0.95, lit: 0.1, haze: '#f4dccb', water: ['#7fa0bf', '#45678a'] },
  autumn: { sky: ['#6fa3cf', '#b3d2ea', '#eef5f8'], sun: { x: 1180, y: 200, r: 55, color: '#fff8e0', glow: '#fff1c8' }, light: 1, lit: 0.05, haze: '#eef0ea', water: ['#5a88b0', '#35597c'] },
};

/**
 * Mixes a hex colour towards black by `light` (1 = unchanged), for the time of day.
 * @param {string} hex
 * @param {number} light
 */
function shade(hex, light) {
  const n = Number.parseInt(hex.slice(1), 16);
  /** @param {number} shift */
  const channel = (shift) => Math.round(((n >> shift) & 0xff) * light);
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

/** @param {Mood} mood @param {string} id */
function defs(mood, id) {
  const [top, mid, bottom] = mood.sky;
  const [waterTop, waterBottom] = mood.water;
  return `<defs>
    <linearGradient id="sky${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="0.55" stop-color="${mid}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>
    <linearGradient id="water${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${waterTop}"/><stop offset="1" stop-color="${waterBottom}"/></linearGradient>
    <linearGradient id="glass${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade('#b9d4ea', mood.light)}"/><stop offset="0.5" stop-color="${shade('#6f98bf', mood.light)}"/><stop offset="1" stop-color="${shade('#3d5f82', mood.light)}"/></linearGradient>
    <radialGradient id="glow${id}"><stop offset="0" stop-color="${mood.sun?.glow ?? '#ffffff'}" stop-opacity="0.75"/><stop offset="1" stop-color="${mood.sun?.glow ?? '#ffffff'}" stop-opacity="0"/></radialGradient>
    <linearGradient id="shadow${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></linearGradient>
  </defs>`;
}

/** @param {Mood} mood @param {string} id @param {Rand} rand */
function sky(mood, id, rand) {
  let out = `<rect width="${W}" height="${H}" fill="url(#sky${id})"/>`;
  if (mood.sun) {
    const { x, y, r, color } = mood.sun;
    out += `<circle cx="${x}" cy="${y}" r="${r * 4}" fill="url(#glow${id})"/><circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>`;
  }
  if (mood.moon) {
    const { x, y, r } = mood.moon;
    out += `<circle cx="${x}" cy="${y}" r="${r}" fill="#f4f1e0"/><circle cx="${x + 12}" cy="${y - 6}" r="${r}" fill="${mood.sky[0]}"/>`;
    for (let i = 0; i < 70; i += 1) {
      out += `<circle cx="${r1(rand.range(0, W))}" cy="${r1(rand.range(0, 420))}" r="${r1(rand.range(0.8, 2))}" fill="#fff" opacity="${r1(rand.range(0.3, 0.9))}"/>`;
    }
  }
  const clouds = mood.moon ? 2 : rand.int(3, 6);
  for (let i = 0; i < clouds; i += 1) {
    const cx = rand.range(80, W - 80);
    const cy = rand.range(80, 330);
    const s = rand.range(0.7, 1.5);
    const opacity = mood.moon ? 0.18 : 0.75;
    const fill = mood.moon ? '#c9c6e6' : '#ffffff';
    out += `<g opacity="${opacity}" fill="${fill}"><ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${r1(110 * s)}" ry="${r1(28 * s)}"/><ellipse cx="${r1(cx - 45 * s)}" cy="${r1(cy - 14 * s)}" rx="${r1(55 * s)}" ry="${r1(30 * s)}"/><ellipse cx="${r1(cx + 35 * s)}" cy="${r1(cy - 22 * s)}" rx="${r1(60 * s)}" ry="${r1(36 * s)}"/></g>`;
  }
  return out;
}

/**
 * A ridge line across the picture: `base` is its mean height, `amp` its relief.
 * @param {Rand} rand
 * @param {number} base
 * @param {number} amp
 * @param {string} color
 * @param {number} [opacity]
 * @param {number} [steps]
 */
function ridge(rand, base, amp, color, opacity = 1, steps = 9) {
  const points = [`0,${H}`];
  for (let i = 0; i <= steps; i += 1) {
    const x = (W / steps) * i;
    points.push(`${r1(x)},${r1(base - rand.range(0, amp))}`);
  }
  points.push(`${W},${H}`);
  return `<polygon points="${points.join(' ')}" fill="${color}" opacity="${opacity}"/>`;
}

/** @param {Rand} rand @param {number} base @param {number} amp @param {string} color */
function smoothHills(rand, base, amp, color) {
  let d = `M0 ${H} L0 ${r1(base)}`;
  let x = 0;
  while (x < W) {
    const step = rand.range(260, 460);
    const peak = base - rand.range(amp * 0.3, amp);
    d += ` Q${r1(x + step / 2)} ${r1(peak)} ${r1(x + step)} ${r1(base + rand.range(-amp * 0.2, amp * 0.2))}`;
    x += step;
  }
  d += ` L${W} ${H} Z`;
  return `<path d="${d}" fill="${color}"/>`;
}

/** @param {number} y @param {string} color @param {Mood} mood */
function ground(y, color, mood) {
  return `<rect x="0" y="${y}" width="${W}" height="${H - y}" fill="${shade(color, mood.light)}"/>`;
}

/** @param {number} x @param {number} y @param {number} size @param {Mood} mood @param {string[]} palette */
function deciduousTree(x, y, size, mood, palette) {
  const trunk = shade('#5b4030', mood.light);
  const [a, b] = palette.map((c) => shade(c, mood.light));
  return `<g><rect x="${r1(x - size * 0.06)}" y="${r1(y - size * 0.55)}" width="${r1(size * 0.12)}" height="${r1(size * 0.55)}" fill="${trunk}"/>
    <circle cx="${r1(x)}" cy="${r1(y - size * 0.75)}" r="${r1(size * 0.38)}" fill="${a}"/>
    <circle cx="${r1(x - size * 0.22)}" cy="${r1(y - size * 0.6)}" r="${r1(size * 0.26)}" fill="${a}"/>
    <circle cx="${r1(x + size * 0.22)}" cy="${r1(y - size * 0.62)}" r="${r1(size * 0.28)}" fill="${b}"/>
    <circle cx="${r1(x + size * 0.08)}" cy="${r1(y - size * 0.92)}" r="${r1(size * 0.22)}" fill="${b}" opacity="0.8"/></g>`;
}

/** @param {number} x @param {number} y @param {number} size @param {Mood} mood */
function conifer(x, y, size, mood) {
  const green = shade('#2f5d3a', mood.light);
  const dark = shade('#234a2d', mood.light);
  return `<g><rect x="${r1(x - size * 0.04)}" y="${r1(y - size * 0.15)}" width="${r1(size * 0.08)}" height="${r1(size * 0.15)}" fill="${shade('#4a3526', mood.light)}"/>
    <polygon points="${r1(x)},${r1(y - size)} ${r1(x - size * 0.28)},${r1(y - size * 0.1)} ${r1(x + size * 0.28)},${r1(y - size * 0.1)}" fill="${green}"/>
    <polygon points="${r1(x)},${r1(y - size)} ${r1(x + size * 0.28)},${r1(y - size * 0.1)} ${r1(x + size * 0.05)},${r1(y - size * 0.1)}" fill="${dark}"/></g>`;
}

/** @param {number} x @param {number} y @param {number} size @param {Mood} mood */
function willow(x, y, size, mood) {
  const trunk = shade('#5a4632', mood.light);
  const leaf = shade('#7fa35a', mood.light);
  const leafDark = shade('#5f8543', mood.light);
  let strands = '';
  for (let i = -5; i <= 5; i += 1) {
    const sx = x + i * size * 0.07;
    strands += `<path d="M${r1(sx)} ${r1(y - size * 0.85)} Q${r1(sx + i * 4)} ${r1(y - size * 0.5)} ${r1(sx + i * 6)} ${r1(y - size * 0.18)}" stroke="${i % 2 ? leaf : leafDark}" stroke-width="${r1(size * 0.06)}" fill="none" stroke-linecap="round"/>`;
  }
  return `<g><rect x="${r1(x - size * 0.05)}" y="${r1(y - size * 0.7)}" width="${r1(size * 0.1)}" height="${r1(size * 0.7)}" fill="${trunk}"/>
    <ellipse cx="${r1(x)}" cy="${r1(y - size * 0.82)}" rx="${r1(size * 0.42)}" ry="${r1(size * 0.22)}" fill="${leafDark}"/>${strands}</g>`;
}

/**
 * A grid of windows; some are lit, more of them as the light falls.
 * @param {Rand} rand
 * @param {number} x
 * @param {number} y
 * @param {number} cols
 * @param {number} rows
 * @param {number} w
 * @param {number} h
 * @param {number} gapX
 * @param {number} gapY
 * @param {Mood} mood
 * @param {string} [frame]
 * @param {string} [glassColor]
 */
function windows(rand, x, y, cols, rows, w, h, gapX, gapY, mood, frame = '#e9eef2', glassColor = '#8fb3cf') {
  let out = '';
  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      const wx = x + col * (w + gapX);
      const wy = y + row * (h + gapY);
      const lit = rand.chance(mood.lit);
      const fill = lit ? (rand.chance(0.5) ? '#ffd98a' : '#ffe7b0') : shade(glassColor, mood.light);
      out += `<rect x="${r1(wx - 2)}" y="${r1(wy - 2)}" width="${r1(w + 4)}" height="${r1(h + 4)}" fill="${shade(frame, mood.light)}"/><rect x="${r1(wx)}" y="${r1(wy)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}"/>`;
      if (!lit) out += `<polygon points="${r1(wx)},${r1(wy)} ${r1(wx + w * 0.45)},${r1(wy)} ${r1(wx)},${r1(wy + h * 0.6)}" fill="#ffffff" opacity="0.18"/>`;
    }
  }
  return out;
}

/** @param {Rand} rand @param {number} x @param {number} baseY @param {number} w @param {number} h @param {string} color @param {string} roof @param {Mood} mood */
function townhouse(rand, x, baseY, w, h, color, roof, mood) {
  const peak = baseY - h - w * 0.32;
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" fill="${shade(color, mood.light)}"/>`;
  out += `<rect x="${r1(x + w * 0.5)}" y="${r1(baseY - h)}" width="${r1(w * 0.5)}" height="${r1(h)}" fill="#000" opacity="0.07"/>`;
  out += `<polygon points="${r1(x - 10)},${r1(baseY - h)} ${r1(x + w / 2)},${r1(peak)} ${r1(x + w + 10)},${r1(baseY - h)}" fill="${shade(roof, mood.light)}"/>`;
  out += `<rect x="${r1(x + w * 0.68)}" y="${r1(peak + 10)}" width="${r1(w * 0.1)}" height="${r1(w * 0.22)}" fill="${shade('#7a4c3a', mood.light)}"/>`;
  out += windows(rand, x + w * 0.14, baseY - h + h * 0.12, 2, 2, w * 0.24, h * 0.2, w * 0.2, h * 0.14, mood);
  out += `<rect x="${r1(x + w * 0.4)}" y="${r1(baseY - h * 0.32)}" width="${r1(w * 0.2)}" height="${r1(h * 0.32)}" fill="${shade('#3f4b5a', mood.light)}"/>`;
  out += `<rect x="${r1(x + w * 0.36)}" y="${r1(baseY - h * 0.36)}" width="${r1(w * 0.28)}" height="6" fill="${shade('#e8e2d4', mood.light)}"/>`;
  return out;
}

/** @param {Rand} rand @param {number} x @param {number} baseY @param {number} w @param {number} h @param {number} floors @param {string} color @param {Mood} mood @param {boolean} [balconies] */
function apartmentBlock(rand, x, baseY, w, h, floors, color, mood, balconies = true) {
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" fill="${shade(color, mood.light)}"/>`;
  out += `<rect x="${r1(x + w * 0.62)}" y="${r1(baseY - h)}" width="${r1(w * 0.38)}" height="${r1(h)}" fill="#000" opacity="0.09"/>`;
  out += `<rect x="${r1(x - 8)}" y="${r1(baseY - h - 14)}" width="${r1(w + 16)}" height="14" fill="${shade('#4a505a', mood.light)}"/>`;
  const cols = Math.max(3, Math.round(w / 70));
  const floorH = (h - 40) / floors;
  const winW = (w - 40) / cols - 22;
  out += windows(rand, x + 26, baseY - h + 26, cols, floors, winW, floorH * 0.5, 22, floorH * 0.5, mood);
  if (balconies) {
    for (let f = 1; f < floors; f += 1) {
      const by = baseY - h + 26 + f * floorH - floorH * 0.22;
      out += `<rect x="${r1(x + 14)}" y="${r1(by)}" width="${r1(w - 28)}" height="5" fill="${shade('#f2f2f2', mood.light)}" opacity="0.9"/>`;
      out += `<rect x="${r1(x + 14)}" y="${r1(by - floorH * 0.16)}" width="${r1(w - 28)}" height="${r1(floorH * 0.16)}" fill="${shade('#dfe6ec', mood.light)}" opacity="0.35"/>`;
    }
  }
  return out;
}

/** @param {Rand} rand @param {number} x @param {number} baseY @param {number} w @param {number} h @param {Mood} mood */
function brickLoft(rand, x, baseY, w, h, mood) {
  const brick = shade('#9c4a32', mood.light);
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" fill="${brick}"/>`;
  for (let y = baseY - h + 12; y < baseY; y += 14) {
    out += `<line x1="${r1(x)}" y1="${r1(y)}" x2="${r1(x + w)}" y2="${r1(y)}" stroke="#000" stroke-opacity="0.08" stroke-width="2"/>`;
  }
  out += `<rect x="${r1(x - 10)}" y="${r1(baseY - h - 22)}" width="${r1(w + 20)}" height="22" fill="${shade('#7d3a27', mood.light)}"/>`;
  out += `<rect x="${r1(x + w * 0.3)}" y="${r1(baseY - h - 70)}" width="${r1(w * 0.4)}" height="48" fill="${shade('#8a4029', mood.light)}"/>`;
  out += `<text x="${r1(x + w / 2)}" y="${r1(baseY - h - 36)}" font-family="Georgia, serif" font-size="26" text-anchor="middle" fill="${shade('#f1e3c8', mood.light)}">MAPLE ST.</text>`;
  const cols = Math.round(w / 110);
  const floors = 4;
  const cellW = w / cols;
  const cellH = (h - 30) / floors;
  for (let f = 0; f < floors; f += 1) {
    for (let c = 0; c < cols; c += 1) {
      const wx = x + c * cellW + cellW * 0.2;
      const wy = baseY - h + 20 + f * cellH + cellH * 0.18;
      const ww = cellW * 0.6;
      const wh = cellH * 0.62;
      const lit = rand.chance(mood.lit);
      const glass = lit ? '#ffd98a' : shade('#7fa2bd', mood.light);
      out += `<path d="M${r1(wx)} ${r1(wy + wh)} L${r1(wx)} ${r1(wy + ww / 2)} A${r1(ww / 2)} ${r1(ww / 2)} 0 0 1 ${r1(wx + ww)} ${r1(wy + ww / 2)} L${r1(wx + ww)} ${r1(wy + wh)} Z" fill="${shade('#efe6d6', mood.light)}"/>`;
      out += `<path d="M${r1(wx + 5)} ${r1(wy + wh - 4)} L${r1(wx + 5)} ${r1(wy + ww / 2)} A${r1(ww / 2 - 5)} ${r1(ww / 2 - 5)} 0 0 1 ${r1(wx + ww - 5)} ${r1(wy + ww / 2)} L${r1(wx + ww - 5)} ${r1(wy + wh - 4)} Z" fill="${glass}"/>`;
      out += `<line x1="${r1(wx + ww / 2)}" y1="${r1(wy + 6)}" x2="${r1(wx + ww / 2)}" y2="${r1(wy + wh - 4)}" stroke="${shade('#efe6d6', mood.light)}" stroke-width="3"/>`;
      out += `<line x1="${r1(wx + 5)}" y1="${r1(wy + wh * 0.6)}" x2="${r1(wx + ww - 5)}" y2="${r1(wy + wh * 0.6)}" stroke="${shade('#efe6d6', mood.light)}" stroke-width="3"/>`;
    }
  }
  return out;
}

/** @param {Rand} rand @param {number} x @param {number} baseY @param {number} w @param {number} h @param {Mood} mood @param {string} id @param {boolean} [crown] */
function glassTower(rand, x, baseY, w, h, mood, id, crown = true) {
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" fill="url(#glass${id})"/>`;
  const cols = Math.round(w / 26);
  for (let c = 1; c < cols; c += 1) {
    out += `<line x1="${r1(x + (w / cols) * c)}" y1="${r1(baseY - h)}" x2="${r1(x + (w / cols) * c)}" y2="${baseY}" stroke="${shade('#dfe9f2', mood.light)}" stroke-opacity="0.45" stroke-width="2"/>`;
  }
  for (let y = baseY - h + 30; y < baseY; y += 30) {
    out += `<line x1="${r1(x)}" y1="${r1(y)}" x2="${r1(x + w)}" y2="${r1(y)}" stroke="${shade('#2d4763', mood.light)}" stroke-opacity="0.5" stroke-width="3"/>`;
    if (mood.lit > 0.3) {
      for (let c = 0; c < cols; c += 1) {
        if (rand.chance(mood.lit * 0.6)) {
          out += `<rect x="${r1(x + (w / cols) * c + 2)}" y="${r1(y - 26)}" width="${r1(w / cols - 4)}" height="22" fill="#ffe0a0" opacity="0.85"/>`;
        }
      }
    }
  }
  out += `<polygon points="${r1(x)},${r1(baseY - h)} ${r1(x + w * 0.55)},${r1(baseY - h)} ${r1(x)},${r1(baseY - h * 0.45)}" fill="#ffffff" opacity="0.12"/>`;
  if (crown) {
    out += `<rect x="${r1(x + w * 0.2)}" y="${r1(baseY - h - 40)}" width="${r1(w * 0.6)}" height="40" fill="${shade('#56697d', mood.light)}"/>`;
    out += `<rect x="${r1(x + w * 0.48)}" y="${r1(baseY - h - 110)}" width="6" height="70" fill="${shade('#56697d', mood.light)}"/>`;
    if (mood.lit > 0.3) out += `<circle cx="${r1(x + w * 0.48 + 3)}" cy="${r1(baseY - h - 112)}" r="5" fill="#ff5a4a"/>`;
  }
  return out;
}

/** @param {Rand} rand @param {number} x @param {number} baseY @param {number} w @param {number} h @param {Mood} mood @param {string} [color] */
function warehouse(rand, x, baseY, w, h, mood, color = '#c9ccd1') {
  let out = `<rect x="${r1(x)}" y="${r1(baseY - h)}" width="${r1(w)}" height="${r1(h)}" fill="${shade(color, mood.light)}"/>`;
  for (let px = x + 18; px < x + w; px += 18) {
    out += `<line x1="${r1(px)}" y1="${r1(baseY - h)}" x2="${r1(px)}" y2="${baseY}" stroke="#000" stroke-opacity="0.06" stroke-width="3"/>`;
  }
  out += `<rect x="${r1(x - 6)}" y="${r1(baseY - h - 12)}" width="${r1(w + 12)}" height="12" fill="${shade('#7b8794', mood.light)}"/>`;
  out += `<rect x="${r1(x)}" y="${r1(baseY - h + 18)}" width="${r1(w)}" height="16" fill="${shade('#2f6f9f', mood.light)}"/>`;
  const doors = Math.floor(w / 90);
  for (let d = 0; d < doors; d += 1) {
    const dx = x + 30 + d * ((w - 60) / doors);
    out += `<rect x="${r1(dx)}" y="${r1(baseY - h * 0.45)}" width="56" height="${r1(h * 0.45)}" fill="${shade('#8e969f', mood.light)}"/>`;
    for (let ly = baseY - h * 0.45 + 8; ly < baseY; ly += 10) {
      out += `<line x1="${r1(dx)}" y1="${r1(ly)}" x2="${r1(dx + 56)}" y2="${r1(ly)}" stroke="#000" stroke-opacity="0.12"/>`;
    }
    out += `<rect x="${r1(dx - 4)}" y="${r1(baseY - 8)}" width="64" height="8" fill="${shade('#f2c230', mood.light)}"/>`;
  }
  out += windows(rand, x + 20, baseY - h + 48, Math.floor(w / 60), 1, 34, 16, 26, 0, mood, '#b8bec6', '#a9c4d8');
  return out;
}

/** @param {number} x @param {number} baseY @param {Mood} mood @param {string} [color] */
function truck(x, baseY, mood, color = '#e04b3c') {
  return `<g><rect x="${x}" y="${baseY - 70}" width="150" height="60" fill="${shade('#eef1f4', mood.light)}"/>
    <rect x="${x + 150}" y="${baseY - 56}" width="46" height="46" fill="${shade(color, mood.light)}"/>
    <rect x="${x + 170}" y="${baseY - 50}" width="20" height="16" fill="${shade('#9fc2dc', mood.light)}"/>
    <circle cx="${x + 30}" cy="${baseY - 8}" r="11" fill="#222"/><circle cx="${x + 120}" cy="${baseY - 8}" r="11" fill="#222"/><circle cx="${x + 176}" cy="${baseY - 8}" r="11" fill="#222"/></g>`;
}

/** @param {number} x @param {number} y @param {Mood} mood */
function boat(x, y, mood) {
  return `<g><polygon points="${x},${y} ${x + 80},${y} ${x + 66},${y + 16} ${x + 12},${y + 16}" fill="${shade('#f5f5f5', mood.light)}"/>
    <line x1="${x + 38}" y1="${y}" x2="${x + 38}" y2="${y - 90}" stroke="${shade('#dddddd', mood.light)}" stroke-width="3"/>
    <polygon points="${x + 40},${y - 86} ${x + 40},${y - 6} ${x + 76},${y - 6}" fill="${shade('#fbfbf7', mood.light)}"/></g>`;
}

/** @param {number} y @param {Mood} mood @param {string} id @param {Rand} rand */
function water(y, mood, id, rand) {
  let out = `<rect x="0" y="${y}" width="${W}" height="${H - y}" fill="url(#water${id})"/>`;
  for (let i = 0; i < 40; i += 1) {
    const wy = rand.range(y + 10, H - 10);
    const wx = rand.range(0, W);
    out += `<rect x="${r1(wx)}" y="${r1(wy)}" width="${r1(rand.range(40, 140))}" height="2" fill="#ffffff" opacity="${r1(rand.range(0.08, 0.25))}"/>`;
  }
  return out;
}

/** @param {number} y @param {Mood} mood @param {boolean} [dashed] */
function road(y, mood, dashed = true) {
  let out = `<rect x="0" y="${y}" width="${W}" height="70" fill="${shade('#55595f', mood.light)}"/><rect x="0" y="${y - 10}" width="${W}" height="10" fill="${shade('#c9c3b8', mood.light)}"/>`;
  if (dashed) for (let x = 20; x < W; x += 120) out += `<rect x="${x}" y="${y + 32}" width="60" height="6" fill="${shade('#f0e6c8', mood.light)}"/>`;
  return out;
}

/** @param {number} x @param {number} y @param {Mood} mood */
function streetLamp(x, y, mood) {
  const lit = mood.lit > 0.3;
  return `<g><rect x="${x}" y="${y - 150}" width="6" height="150" fill="${shade('#2f3338', mood.light)}"/><rect x="${x - 14}" y="${y - 156}" width="34" height="8" fill="${shade('#2f3338', mood.light)}"/>${lit ? `<circle cx="${x + 3}" cy="${y - 146}" r="40" fill="#ffd98a" opacity="0.25"/><circle cx="${x + 3}" cy="${y - 146}" r="7" fill="#fff1c4"/>` : ''}</g>`;
}

/** @param {number} y @param {Mood} mood @param {number} [from] @param {number} [to] */
function fence(y, mood, from = 0, to = W) {
  const wood = shade('#8a6a4a', mood.light);
  let out = `<rect x="${from}" y="${y - 46}" width="${to - from}" height="6" fill="${wood}"/><rect x="${from}" y="${y - 24}" width="${to - from}" height="6" fill="${wood}"/>`;
  for (let x = from; x < to; x += 70) out += `<rect x="${x}" y="${y - 60}" width="10" height="60" fill="${wood}"/>`;
  return out;
}

/** @param {number} x @param {number} y @param {Mood} mood */
function stake(x, y, mood) {
  return `<g><rect x="${x}" y="${y - 40}" width="5" height="40" fill="${shade('#c8a878', mood.light)}"/><polygon points="${x + 5},${y - 40} ${x + 26},${y - 33} ${x + 5},${y - 26}" fill="#ff6b3d"/></g>`;
}

/** @param {Mood} mood @param {string} id */
function finish(mood, id) {
  return `<rect width="${W}" height="${H}" fill="url(#shadow${id})"/><rect width="${W}" height="${H}" fill="${mood.haze}" opacity="0.05"/>`;
}

const AUTUMN = [['#d9822b', '#b85c1e'], ['#e0a030', '#c77a22'], ['#b8432a', '#8f3320']];
const SUMMER = [['#5f9a4a', '#4a7f3b'], ['#6aa84f', '#4f8a3c'], ['#7bab55', '#5c8f42']];

/** @satisfies {Record<string, (mood: Mood, id: string, rand: Rand) => string>} */
const scenes = {
  /** A row of townhouses behind a lawn and a lane. */
  townhomes(mood, id, rand) {
    let out = sky(mood, id, rand) + ridge(rand, 640, 60, shade('#8fa9b8', mood.light), 0.6);
    out += ground(640, '#7fae5d', mood);
    const colors = ['#e8dcc8', '#d7c2a3', '#c9d6df', '#efe4d2', '#d9b9a0', '#cdd5c4'];
    const roofs = ['#5b4a42', '#6b3f33', '#3f4a57'];
    let x = 60;
    while (x < W - 120) {
      const w = rand.range(190, 230);
      out += townhouse(rand, x, 720, w, rand.range(230, 270), rand.pick(colors), rand.pick(roofs), mood);
      x += w + 12;
    }
    out += `<rect x="0" y="720" width="${W}" height="${H - 720}" fill="${shade('#6e9f4f', mood.light)}"/>`;
    out += road(860, mood);
    for (let i = 0; i < 6; i += 1) out += deciduousTree(rand.range(40, W - 40), rand.range(790, 850), rand.range(150, 220), mood, rand.pick(SUMMER));
    if (mood.lit > 0.3) for (let x2 = 120; x2 < W; x2 += 380) out += streetLamp(x2, 860, mood);
    return out + finish(mood, id);
  },
  /** Apartment blocks on a harbour front, sailing boats in the water. */
  harbor(mood, id, rand) {
    let out = sky(mood, id, rand) + ridge(rand, 560, 80, shade('#7e93a6', mood.light), 0.55);
    out += ground(560, '#9aa59a', mood);
    out += apartmentBlock(rand, 180, 660, 380, 420, 8, '#f1ece3', mood);
    out += apartmentBlock(rand, 620, 660, 460, 480, 9, '#e6ddd0', mood);
    out += apartmentBlock(rand, 1140, 660, 320, 360, 7, '#dfe5ea', mood);
    out += `<rect x="0" y="660" width="${W}" height="30" fill="${shade('#b9b2a5', mood.light)}"/>`;
    for (let i = 0; i < 7; i += 1) out += deciduousTree(80 + i * 230 + rand.range(-20, 20), 690, rand.range(90, 130), mood, rand.pick(SUMMER));
    out += water(690, mood, id, rand);
    out += boat(rand.range(200, 500), rand.range(760, 820), mood) + boat(rand.range(900, 1300), rand.range(800, 870), mood);
    return out + finish(mood, id);
  },
  /** A converted brick warehouse on a street lined with maples. */
  lofts(mood, id, rand) {
    let out = sky(mood, id, rand);
    out += `<rect x="0" y="380" width="${W}" height="320" fill="${shade('#a8a39b', mood.light)}" opacity="0.5"/>`;
    out += ground(700, '#8a8a84', mood);
    out += brickLoft(rand, 260, 740, 1080, 470, mood);
    out += `<rect x="0" y="740" width="${W}" height="40" fill="${shade('#bdb6aa', mood.light)}"/>`;
    out += road(790, mood, false);
    out += `<rect x="0" y="860" width="${W}" height="${H - 860}" fill="${shade('#bdb6aa', mood.light)}"/>`;
    for (let i = 0; i < 5; i += 1) out += deciduousTree(120 + i * 340 + rand.range(-30, 30), 760, rand.range(200, 250), mood, rand.pick(AUTUMN));
    for (let i = 0; i < 4; i += 1) out += deciduousTree(200 + i * 400 + rand.range(-40, 40), 990, rand.range(230, 280), mood, rand.pick(AUTUMN));
    if (mood.lit > 0.3) for (let x = 60; x < W; x += 420) out += streetLamp(x, 780, mood);
    return out + finish(mood, id);
  },
  /** Glass office towers over a river, with a plaza. */
  towers(mood, id, rand) {
    let out = sky(mood, id, rand);
    for (let i = 0; i < 9; i += 1) {
      const w = rand.range(90, 150);
      const h = rand.range(180, 330);
      out += `<rect x="${r1(rand.range(0, W - w))}" y="${r1(640 - h)}" width="${r1(w)}" height="${r1(h)}" fill="${shade('#8d9bb0', mood.light)}" opacity="0.55"/>`;
    }
    out += glassTower(rand, 420, 680, 260, 560, mood, id);
    out += glassTower(rand, 740, 680, 320, 470, mood, id, false);
    out += glassTower(rand, 1120, 680, 220, 380, mood, id, false);
    out += `<rect x="0" y="680" width="${W}" height="60" fill="${shade('#cfc8bb', mood.light)}"/>`;
    for (let i = 0; i < 8; i += 1) out += deciduousTree(60 + i * 200 + rand.range(-20, 20), 740, rand.range(90, 120), mood, rand.pick(SUMMER));
    out += water(740, mood, id, rand);
    return out + finish(mood, id);
  },
  /** A close view of the tower entrance plaza. */
  plaza(mood, id, rand) {
    let out = sky(mood, id, rand);
    out += glassTower(rand, 300, 820, 560, 900, mood, id, false);
    out += glassTower(rand, 960, 820, 420, 640, mood, id, false);
    out += `<rect x="0" y="820" width="${W}" height="${H - 820}" fill="${shade('#d6cfc2', mood.light)}"/>`;
    for (let x = 0; x < W; x += 80) out += `<line x1="${x}" y1="820" x2="${x - 200}" y2="${H}" stroke="#000" stroke-opacity="0.06" stroke-width="2"/>`;
    out += `<rect x="460" y="700" width="240" height="120" fill="${shade('#2e3f52', mood.light)}"/><rect x="440" y="690" width="280" height="14" fill="${shade('#c9d2da', mood.light)}"/>`;
    for (let i = 0; i < 5; i += 1) out += deciduousTree(100 + i * 340, 900, rand.range(150, 190), mood, rand.pick(SUMMER));
    out += `<ellipse cx="1250" cy="910" rx="160" ry="26" fill="${shade('#7fb0d6', mood.light)}"/><rect x="1090" y="905" width="320" height="18" fill="${shade('#bdb5a6', mood.light)}"/>`;
    return out + finish(mood, id);
  },
  /** Logistics warehouses with trucks, mountains behind. */
  logistics(mood, id, rand) {
    let out = sky(mood, id, rand);
    out += ridge(rand, 470, 200, shade('#8b90a8', mood.light), 0.8, 7);
    out += ridge(rand, 560, 120, shade('#a3927d', mood.light), 0.9, 10);
    out += ground(600, '#b9a98c', mood);
    for (let i = 0; i < 5; i += 1) out += conifer(rand.range(20, W - 20), rand.range(600, 625), rand.range(50, 80), mood);
    out += warehouse(rand, 100, 740, 760, 200, mood);
    out += warehouse(rand, 920, 720, 600, 170, mood, '#d3d6da');
    out += `<rect x="0" y="740" width="${W}" height="${H - 740}" fill="${shade('#6d7074', mood.light)}"/>`;
    for (let x = 40; x < W; x += 160) out += `<rect x="${x}" y="860" width="90" height="6" fill="${shade('#f2efe6', mood.light)}"/>`;
    out += truck(rand.range(150, 400), 820, mood) + truck(rand.range(900, 1200), 830, mood, '#2f6fb0');
    return out + finish(mood, id);
  },
  /** Rolling pasture with willows along a creek, mountains on the horizon. */
  ranch(mood, id, rand) {
    let out = sky(mood, id, rand);
    out += ridge(rand, 520, 230, shade('#7d8ba6', mood.light), 0.85, 6);
    out += smoothHills(rand, 600, 80, shade('#8cb05c', mood.light));
    out += smoothHills(rand, 700, 70, shade('#a3bf68', mood.light));
    out += `<path d="M0 820 Q400 760 800 800 T1600 780 L1600 830 Q1200 840 800 850 T0 870 Z" fill="${shade('#6f9fc8', mood.light)}" opacity="0.9"/>`;
    out += smoothHills(rand, 880, 40, shade('#b5cc72', mood.light));
    for (let i = 0; i < 5; i += 1) out += willow(rand.range(60, W - 60), rand.range(800, 830), rand.range(150, 210), mood);
    for (let i = 0; i < 6; i += 1) out += conifer(rand.range(0, W), rand.range(640, 700), rand.range(60, 100), mood);
    out += fence(960, mood);
    return out + finish(mood, id);
  },
  /** The same land surveyed for lots: stakes and a gravel track. */
  survey(mood, id, rand) {
    let out = sky(mood, id, rand);
    out += ridge(rand, 500, 250, shade('#6f7d9a', mood.light), 0.85, 5);
    out += smoothHills(rand, 620, 70, shade('#9bb462', mood.light));
    out += `<path d="M760 ${H} Q820 820 900 700 T1000 620" stroke="${shade('#cdbb94', mood.light)}" stroke-width="60" fill="none"/>`;
    for (let i = 0; i < 14; i += 1) out += stake(rand.range(40, W - 60), rand.range(720, 980), mood);
    for (let i = 0; i < 4; i += 1) out += willow(rand.range(40, 600), rand.range(700, 760), rand.range(120, 170), mood);
    for (let i = 0; i < 7; i += 1) out += conifer(rand.range(1000, W), rand.range(640, 720), rand.range(70, 120), mood);
    return out + finish(mood, id);
  },
};

/**
 * Each sample project's pictures: the scene and the time of day. Slugs match the seed (seed.ts).
 * @type {Record<string, [keyof typeof scenes, keyof typeof MOODS][]>}
 */
const PICTURES = {
  'cedar-grove-townhomes': [['townhomes', 'day'], ['townhomes', 'golden'], ['townhomes', 'dusk']],
  'harbor-point-apartments': [['harbor', 'day'], ['harbor', 'sunset']],
  'maple-street-lofts': [['lofts', 'autumn'], ['lofts', 'dusk']],
  'riverside-commerce-center': [['towers', 'day'], ['plaza', 'morning'], ['towers', 'dusk']],
  'summit-logistics-park': [['logistics', 'day'], ['logistics', 'morning']],
  'willow-creek-ranch': [['ranch', 'day'], ['survey', 'golden'], ['ranch', 'sunset']],
};

mkdirSync(OUT, { recursive: true });
let total = 0;
let seed = 1;
for (const [slug, pictures] of Object.entries(PICTURES)) {
  for (const [n, [scene, moodName]] of pictures.entries()) {
    const id = `${slug.replace(/[^a-z]/g, '')}${n}`;
    const mood = MOODS[moodName];
    const body = scenes[scene](mood, id, rng(seed * 7919));
    seed += 1;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${defs(mood, id)}${body}</svg>`;
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
    const file = path.join(OUT, `${slug}-${n + 1}.jpg`);
    writeFileSync(file, jpeg);
    total += jpeg.length;
    console.log(`${path.relative(process.cwd(), file)}  ${(jpeg.length / 1024).toFixed(0)} KiB`);
  }
}
console.log(`total ${(total / 1024 / 1024).toFixed(2)} MiB`);
