// Vitest runs server modules in plain Node, where the real `server-only` throws outside React Server Components.
export {};
