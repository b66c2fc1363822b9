// One rule for "the first-load JS of a page", shared by scripts/check-budgets.mjs and
// bench/weight.ts.

/**
 * The distinct `src` of every `<script>` the HTML references, noModule polyfills excepted (every browser that runs
 * modules skips them). Paths as written, e.g. `/_next/static/chunks/x.js`.
 * @param {string} html
 * @returns {string[]}
 */
export function firstLoadScripts(html) {
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((tag) => !/\bnomodule\b/i.test(tag));
  return [...new Set(tags.map((tag) => /src="([^"]+)"/.exec(tag)?.[1]).filter((src) => !!src))];
}
