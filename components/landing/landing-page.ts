/**
 * Message namespaces of the pages built on the locate box: the home page and the own-phone landing pages. In its own
 * module so that the landing components and the static sections (components/site/static-sections.tsx) can name it
 * without importing each other.
 */
export type LandingPage = 'Home' | 'Landing.locate' | 'Landing.phoneLocate' | 'Landing.gpsLocator';
