'use client';
import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver that loads zod and the schema on first validation (the first submit), so they are not
 * part of a landing page's first-load JavaScript. `load` returns the shared schema from lib/validation.
 */
export function lazyZodResolver<T extends FieldValues>(
  load: () => Promise<Parameters<typeof import('@hookform/resolvers/zod').zodResolver>[0]>,
): Resolver<T> {
  let resolver: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    resolver ??= Promise.all([import('@hookform/resolvers/zod'), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<T>,
    );
    return (await resolver)(values, context, options);
  };
}
