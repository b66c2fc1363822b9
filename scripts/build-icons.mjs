// `npm run icons`: writes public/icons.svg, a sprite of the Lucide icons the pages use, one <symbol>
// per icon, id = the icon's kebab-case name. Pages draw them with <use href="/icons.svg#map-pin">, so an icon costs
// a few bytes of HTML instead of its paths twice (HTML and RSC payload). tests/icons.test.ts checks it is current.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as lucide from 'lucide';

/** The icons in use: Lucide's PascalCase export names. */
export const ICONS = [
  'Check',
  'CircleX',
  'Globe',
  'Link2',
  'LocateFixed',
  'LockKeyhole',
  'MapPin',
  'MessageSquareText',
  'Navigation',
  'Search',
  'ShieldCheck',
  'Smartphone',
  'Wifi',
];

const kebab = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([a-zA-Z])(\d)/g, '$1-$2')
    .toLowerCase();
const attrs = (a) =>
  Object.entries(a)
    .map(([k, v]) => `${k}="${String(v).replace(/"/g, '&quot;')}"`)
    .join(' ');

/** The sprite's text. */
export function sprite() {
  const symbols = ICONS.map((name) => {
    const nodes = lucide[name].map(([tag, a]) => `<${tag} ${attrs(a)}/>`).join('');
    return `<symbol id="${kebab(name)}" viewBox="0 0 24 24">${nodes}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = path.resolve(import.meta.dirname, '../public/icons.svg');
  writeFileSync(file, sprite());
  console.log(`wrote ${file} (${ICONS.length} icons)`);
}
