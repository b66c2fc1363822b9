/**
 * The `name` shared by the header's disclosure menus (the section menu, the free tools, the languages, the account):
 * `<details>` elements with one name form an exclusive group, so opening one closes the others and two panels never
 * open on top of each other (HTML Living Standard, "The details element": the name attribute; Chrome 120, Safari
 * 17.2, Firefox 130). Without JavaScript, in the browser itself.
 */
export const HEADER_MENU_GROUP = 'site-header-menu';
