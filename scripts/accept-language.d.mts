/** See accept-language.mjs: the first of `available` that the `Accept-Language` header asks for, else `fallback`. */
export function acceptedLanguage<L extends string>(
  header: string | null | undefined,
  available: readonly L[],
  fallback: L,
): L;
