/** Folds case, accents and punctuation so "Parar promoções!" matches "parar promocoes". */
export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function matchesAny(text: string | null, keywords: readonly string[]): boolean {
  if (text === null) return false;
  const folded = normaliseKeyword(text);
  return folded !== '' && keywords.some((k) => normaliseKeyword(k) === folded);
}
