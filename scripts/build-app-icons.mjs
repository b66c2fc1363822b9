// `node scripts/build-app-icons.mjs`: draws the installed app's icons (public/app-icons/*.png and app/apple-icon.png)
// from app/icon.svg's pin in Chromium, so there is one drawing of the logo. Run again after changing app/icon.svg; the
// PNGs are committed.
// - icon-192.png, icon-512.png: the logo as the favicon draws it (rounded square), for the web app manifest;
// - maskable-512.png: full-bleed blue with the pin inside the central 80% safe zone (W3C Web App Manifest,
//   "purpose: maskable"), which Android crops to its own shape;
// - app/apple-icon.png (180): full-bleed, iOS rounds the corners itself. It uses Next's `apple-icon` file convention,
//   so every page links it and no page's metadata replaces the favicon (a page's `icons` would).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const svg = readFileSync(path.join(root, 'app/icon.svg'), 'utf8');
const fullBleed = svg.replace(/<rect [^>]*\/>/, '<rect width="32" height="32" fill="#1d4ed8"/>');
/** The pin scaled to 70% around the centre, on a full-bleed square: inside the maskable safe zone. */
const maskable = fullBleed.replace(
  /(<rect [^>]*\/>)([\s\S]*)(<\/svg>)/,
  '$1<g transform="translate(16 16) scale(0.7) translate(-16 -16)">$2</g>$3',
);

const ICONS = [
  ['icon-192.png', 192, svg],
  ['icon-512.png', 512, svg],
  ['maskable-512.png', 512, maskable],
  ['../../app/apple-icon.png', 180, fullBleed],
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
for (const [name, size, drawing] of ICONS) {
  await page.setViewportSize({ width: size, height: size });
  const sized = drawing.replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
  writeFileSync(
    path.join(root, 'public/app-icons', name),
    await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
  );
}
await browser.close();
