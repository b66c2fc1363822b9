import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { sprite } from '../scripts/build-icons.mjs';

describe('icon sprite', () => {
  it('public/icons.svg is what `npm run icons` makes from the installed Lucide', () => {
    expect(readFileSync('public/icons.svg', 'utf8')).toBe(sprite());
  });
  it('holds every icon the pages name', () => {
    const ids = [...readFileSync('public/icons.svg', 'utf8').matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);
    const names = readFileSync('components/site/icon.tsx', 'utf8')
      .match(/\| '([a-z0-9-]+)'/g)!
      .map((s) => s.slice(3, -1));
    expect(ids.sort()).toEqual(names.sort());
  });
});
