/**
 * Folds Meta's error wording into a canonical form so pasted text matches however it was copied:
 * case, accents, punctuation, whitespace, curly apostrophes, "a healthy" vs "healthy" and
 * "to be delivered" vs "to get delivered" all collapse to the same words.
 */
const DROPPED_WORDS = new Set(['a', 'an', 'the']);
const WORD_ALIASES: Readonly<Record<string, string>> = { get: 'be', gets: 'be', got: 'be', been: 'be' };

export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2018\u2019\u02bc`\u00b4]/g, '') // "user's" and "user’s" both become "users"
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !DROPPED_WORDS.has(word))
    .map((word) => WORD_ALIASES[word] ?? word);
}

export function normalizeText(text: string): string {
  return normalizeWords(text).join(' ');
}

/** Codes written into pasted text: "(#131049)", "[131049]", "#131049", "code 131049", "error: 131049", `"code":131049`. */
const CODE_MARKERS = [
  /\(#(\d{1,7})\)/g,
  /\[#?(\d{1,7})\]/g,
  /(?:^|\s)#(\d{1,7})\b/g,
  /\b(?:code|error)\b["']?\s*[:=]?\s*["']?#?(\d{1,7})\b/gi,
];

export function codesMentioned(text: string): number[] {
  const found = new Set<number>();
  for (const marker of CODE_MARKERS) {
    for (const match of text.matchAll(marker)) {
      if (match[1] !== undefined) found.add(Number(match[1]));
    }
  }
  return [...found];
}

/** The text with code markers removed, so "(#131049) This message..." compares as the message alone. */
export function stripCodeMarkers(text: string): string {
  return CODE_MARKERS.reduce((rest, marker) => rest.replace(marker, ' '), text);
}
