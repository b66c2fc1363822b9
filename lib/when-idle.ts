/**
 * Runs `task` once the page has loaded (the `load` event) and the browser is then idle (`requestIdleCallback`, HTML
 * Standard; 300 ms after the load where it is missing, as in Safari), so work a page does not need at once adds
 * nothing to the main-thread work of its load: Total Blocking Time counts the long tasks until the page is quiet
 * (bench/lighthouse-report.md). Returns a function that cancels it if it has not run yet (an effect's cleanup).
 */
export function whenIdleAfterLoad(task: () => void): () => void {
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if ('requestIdleCallback' in window) idle = requestIdleCallback(() => task());
    else timer = setTimeout(task, 300);
  };
  if (document.readyState === 'complete') schedule();
  else addEventListener('load', schedule, { once: true });
  return () => {
    removeEventListener('load', schedule);
    if (idle !== undefined) cancelIdleCallback(idle);
    if (timer !== undefined) clearTimeout(timer);
  };
}
