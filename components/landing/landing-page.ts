/**
 * Message namespaces of the pages built on the locate box: the home page and the own-phone landing pages. In its own
 * module so that the landing components (locate-landing.tsx, landing-intro.tsx) can name it
 * without importing each other.
 */
export type LandingPage = 'Home' | 'Landing.locate' | 'Landing.phoneLocate' | 'Landing.gpsLocator';
