'use client';
import { useEffect } from 'react';
import { whenIdleAfterLoad } from '@/lib/when-idle';

/**
 * Scroll animations (docs/rules.md#front-end, #limits): aos with its defaults — offset 120, duration 400 ms, throttle 99 ms,
 * debounce 50 ms — loaded once the page has loaded and is idle, so it costs the first load nothing. Not loaded at all when the
 * visitor prefers reduced motion: the `[data-aos]` sections then simply stay visible.
 */
export function Enhancements() {
  useEffect(() => {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    if (!document.querySelector('[data-aos]')) return;
    return whenIdleAfterLoad(
      () =>
        void import('aos').then(({ default: AOS }) => {
          document.documentElement.classList.add('aos-enabled');
          AOS.init({ offset: 120, duration: 400, throttleDelay: 99, debounceDelay: 50, once: true });
        }),
    );
  }, []);
  return null;
}

/**
 * Inline script for `<head>` (docs/rules.md#routes): a failed chunk load reloads the page, at most once a minute (the time of the
 * last reload is kept in sessionStorage), so a visitor on an old build gets the new one instead of a broken page.
 */
export const CHUNK_RELOAD_SCRIPT = `(function(){function r(){try{var k='chunkReloadAt',l=+sessionStorage.getItem(k)||0;if(Date.now()-l<60000)return;sessionStorage.setItem(k,String(Date.now()))}catch(e){return}location.reload()}
window.addEventListener('error',function(e){var t=e.target;if(t&&t.tagName==='SCRIPT'&&/\\/_next\\/static\\//.test(t.src))r()},true);
window.addEventListener('unhandledrejection',function(e){var x=e.reason;if(x&&(x.name==='ChunkLoadError'||/Loading chunk|dynamically imported module/.test(String(x.message))))r()})})();`;

/**
 * The `<head>` script CHUNK_RELOAD_SCRIPT. A client component, so the script's text is written once into the HTML
 * (and kept in the browser bundle, where it already is), not again into the RSC payload; hydration
 * finds the same text and leaves the element as it is.
 */
export function ChunkReloadScript() {
  return <script dangerouslySetInnerHTML={{ __html: CHUNK_RELOAD_SCRIPT }} />;
}
