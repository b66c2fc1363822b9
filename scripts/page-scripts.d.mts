/** See page-scripts.mjs: the distinct script srcs a page loads first, noModule polyfills excepted. */
export declare function firstLoadScripts(html: string): string[];
