/**
 * The browser's side of `#static-sections` (package.json `imports`, `browser` condition): static sections are never
 * rendered in the browser, which keeps the HTML the server sent (static-section.tsx), so it has neither their text
 * nor their code. Always `null`.
 */
export function renderStaticSection(): null {
  return null;
}
