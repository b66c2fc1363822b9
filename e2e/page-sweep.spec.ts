import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser } from '@playwright/test';
import { PAGES, type PagePath } from '../lib/routing/pages';
import { shoutingButtons } from './helpers';

// Every public page in every locale, each on its own: status, language, title, a translated h1, no console error,
// no axe violation, buttons in sentence case. The site's behaviours are e2e/site.spec.ts.

/**
 * Every page of lib/routing/pages.ts (without prefix) but those a visitor cannot open without an order or a session
 * (checkout, the dashboards) and the development outbox.
 */
const ROUTES = (Object.keys(PAGES) as PagePath[]).filter((path) => !/^\/(checkout|dashboard|dev)\//.test(path));
const LOCALES = [
  { prefix: '', lang: 'en' },
  { prefix: '/id', lang: 'id' },
  { prefix: '/es', lang: 'es' },
  { prefix: '/ph', lang: 'en-PH' },
];
/**
 * The text of the first h1 of the English page at `route`, as a new visitor sees it (a context of its own: the
 * page's locale cookie would send it elsewhere). Some pages render their h1 in the browser, so it is read there.
 */
async function englishH1(browser: Browser, route: string): Promise<string> {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(route);
    const h1 = page.locator('h1').first();
    await expect(h1).toBeVisible();
    return (await h1.textContent())!.trim();
  } finally {
    await context.close();
  }
}

for (const { prefix, lang } of LOCALES) {
  test.describe(`every route in ${lang}`, () => {
    // Each page is checked on its own, so the sweep spreads over the workers.
    test.describe.configure({ mode: 'parallel' });
    for (const route of ROUTES) {
      const status = route === '/404/' ? 404 : 200;
      test(`${prefix}${route}: ${status}, title, h1 in ${lang}, no console errors, no axe violations`, async ({
        page,
        browser,
      }) => {
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(e.message));
        const res = await page.goto(`${prefix}${route}`);
        expect(res?.status()).toBe(status);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page).toHaveTitle(/\S/);
        const h1 = page.locator('h1').first();
        await expect(h1).toBeVisible();
        const text = (await h1.textContent())!.trim();
        // The id and es pages are translated: their h1 is not the English one.
        if (lang === 'id' || lang === 'es') {
          const english = await englishH1(browser, route);
          expect(english).not.toBe('');
          expect(text).not.toBe(english);
        }
        await page.waitForLoadState('networkidle');
        // Buttons speak in sentence case (the tab titles are checked in e2e/words.spec.ts).
        expect(await shoutingButtons(page)).toEqual([]);
        // Legacy mode runs axe in the page itself instead of opening a blank page per check to merge frame results,
        // which doubled this sweep's time; these pages embed no cross-origin frame, the one thing it cannot test.
        const axe = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
        // `/404/` answers 404 on purpose; Chromium logs that status of the document itself.
        expect(errors.filter((e) => !(status === 404 && /status of 404/.test(e)))).toEqual([]);
      });
    }
  });
}
