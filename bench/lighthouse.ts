// `npm run bench:lighthouse`: Lighthouse 13 (npm `lighthouse`, with the system Chromium) on a production build
// (`npm run build` first), for the home page and each landing page in every locale, and for a bare
// Next page (one <h1>, bench/bare-app.ts) built and served in the same run as the reference. Mobile by default
// (BENCH_FORMS=mobile,desktop adds desktop); BENCH_LOCALES (e.g. ",/es") and BENCH_PAGES narrow the set.
// Targets: mobile performance ≥ 97; accessibility, best practices and SEO 100. Budgets against the bare page of the
// same run, each page's runs paired with bare-page runs made just before them (the two vary together with the
// machine's load): performance within 3 points of it, TBT ≤ 1.5× its TBT. Writes bench/lighthouse-report.md.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium';
import { buildBareApp, serveBareApp } from './bare-app';
import { startBenchServer } from './server';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3332;
const origin = `http://localhost:${PORT}`;
const PAGES = (process.env.BENCH_PAGES ?? '/,/phone-finder/,/gps-locator/,/locate/,/phone-locate/,/ip-tracker/').split(
  ',',
);
const LOCALES = (process.env.BENCH_LOCALES ?? ',/id,/es,/ph').split(',');
const FORMS = (process.env.BENCH_FORMS ?? 'mobile').split(',') as ('mobile' | 'desktop')[];
const BARE_PORT = 3333;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Runs per page and form factor; the median is reported. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

type Row = {
  url: string;
  form: 'mobile' | 'desktop';
  scores: Record<string, number>;
  lcp: number;
  cls: number;
  /** Total blocking time, ms: the median of the runs (a row's other figures are its median run's). */
  tbt: number;
  /** The medians of the bare page's runs paired with this page's: performance score and TBT (ms). */
  pairedBare?: { performance: number; tbt: number };
};

/** The median of `values` (the lower middle one of an even count). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** The run with the median performance score, its TBT replaced by the median TBT of all `runs`. */
function medianRow(runs: Row[]): Row {
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  return { ...sorted[Math.floor(sorted.length / 2)], tbt: median(runs.map((r) => r.tbt)) };
}
const rows: Row[] = [];

const bareApp = serveBareApp(buildBareApp().dir, BARE_PORT);
const server = await startBenchServer(PORT, 55435);
const bare = await bareApp;
try {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  });
  try {
    const bareTarget = { label: 'bare Next page', url: `${bare.origin}/` };
    const targets = LOCALES.flatMap((locale) =>
      PAGES.map((page) => ({ label: `${locale}${page}`, url: `${origin}${locale}${page}` })),
    );
    /** One Lighthouse run of `url` in `form`, as a row labelled `label`. */
    const measure = async (label: string, url: string, form: Row['form']): Promise<Row> => {
      const result = await lighthouse(
        url,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
        form === 'desktop' ? desktopConfig : undefined,
      );
      const lhr = result!.lhr;
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
      const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
      return {
        url: label,
        form,
        scores,
        lcp: num('largest-contentful-paint'),
        cls: num('cumulative-layout-shift'),
        tbt: num('total-blocking-time'),
      };
    };
    const bareRuns: Record<string, Row[]> = {};
    await fetch(bareTarget.url); // warm the route
    for (const { label, url } of targets) {
      await fetch(url); // warm the route
      for (const form of FORMS) {
        // Lighthouse varies from run to run (more so on 2 cores), and so does the bare page: each run of a page is
        // paired with a run of the bare page just before it, and the page is compared with the medians of its own
        // pairs ("Lighthouse variability": several runs, medians).
        const runs: Row[] = [];
        const pairs: Row[] = [];
        for (let i = 0; i < RUNS; i++) {
          pairs.push(await measure(bareTarget.label, bareTarget.url, form));
          runs.push(await measure(label, url, form));
        }
        (bareRuns[form] ??= []).push(...pairs);
        const row = medianRow(runs);
        row.pairedBare = {
          performance: median(pairs.map((r) => r.scores.performance)),
          tbt: median(pairs.map((r) => r.tbt)),
        };
        rows.push(row);
        console.log(
          form,
          url,
          row.scores,
          runs.map((r) => r.scores.performance),
          'paired bare',
          row.pairedBare,
        );
      }
    }
    for (const form of FORMS) rows.unshift(medianRow(bareRuns[form] ?? []));
  } finally {
    await chrome.kill();
  }
} finally {
  server.stop();
  bare.stop();
}

const miss = rows.filter(
  (r) =>
    r.url !== 'bare Next page' &&
    ((r.form === 'mobile' && r.scores.performance < 97) ||
      r.scores.accessibility < 100 ||
      r.scores['best-practices'] < 100 ||
      r.scores.seo < 100),
);
// Budgets against the bare page runs paired with each page's, so they hold on any machine
// (docs/decisions/0012-static-text-is-server-components.md): performance within 3 points of it, TBT at most 1.5× its TBT.
const overBudget = rows.filter(
  (r) => !!r.pairedBare && (r.scores.performance < r.pairedBare.performance - 3 || r.tbt > 1.5 * r.pairedBare.tbt),
);
const table = rows
  .map(
    (r) =>
      `| ${r.url} | ${r.form} | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} | ${Math.round(r.lcp)} | ${r.cls.toFixed(3)} | ${Math.round(r.tbt)} | ${r.pairedBare ? `${r.pairedBare.performance} / ${Math.round(r.pairedBare.tbt)}` : ''} |`,
  )
  .join('\n');
const report = `# Lighthouse

\`npm run bench:lighthouse\` (bench/lighthouse.ts), ${new Date().toISOString().slice(0, 10)}: Lighthouse 13 with the
system Chromium against \`npm start\` (production build, embedded PostgreSQL) on this machine (${os.cpus().length} cores,
Node ${process.version}); Lighthouse's default ${FORMS.join(' and ')} settings (mobile: simulated slow 4G, 4× CPU slowdown); pages: ${LOCALES.map((l) => l || '(en)').join(', ')} × ${PAGES.join(', ')}; each row is the run with the median performance score of ${RUNS}, with the median TBT of the ${RUNS}; each run of a
page follows a run of the bare page, and the last column gives the medians of those paired bare runs. Map tiles and
other outside hosts are unreachable here.

Targets: mobile performance ≥ 97; accessibility, best practices and SEO 100. The first row is a
bare Next page (one \`<h1>\`, same Next and React versions) built and served in the same run, all its runs together: the
reference, not a target.
${miss.length ? `\n**Below target:** ${miss.map((r) => `${r.url} (${r.form})`).join(', ')}.\n` : '\nAll pages meet the targets.\n'}
Budgets against the bare page (its runs paired with the page's, same form): performance within 3 points of it, TBT ≤
1.5× its TBT.
${overBudget.length ? `**Over budget:** ${overBudget.map((r) => `${r.url} (${r.form}: ${r.scores.performance}, TBT ${Math.round(r.tbt)} ms)`).join(', ')}.` : 'All pages are within the budgets.'}

| page | form | performance | accessibility | best practices | SEO | LCP ms | CLS | TBT ms | paired bare: performance / TBT ms |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table}
`;
writeFileSync(path.join(root, 'bench/lighthouse-report.md'), report);
console.log(report);
