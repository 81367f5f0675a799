import type { ErrorApi, ErrorEntry } from '../error-entry.js';
import { ERROR_CATALOGUE } from './catalogue.js';
import { findErrorByCode } from './find-by-code.js';
import { codesMentioned, normalizeWords, stripCodeMarkers } from './normalize-text.js';

/** How an entry was found, strongest first. */
export type LookupMatchKind =
  | 'code' // the query was the code itself
  | 'code_in_text' // the pasted text carried the code, e.g. "(#131049) ..."
  | 'message' // the text equals one of Meta's messages
  | 'fragment' // the text is a piece of one of Meta's messages
  | 'contains_message' // the text is longer and contains one of Meta's messages
  | 'similar_words'; // most words shared, in any order

export interface LookupMatch {
  entry: ErrorEntry;
  kind: LookupMatchKind;
  /** 0..1; matches are sorted by it, highest first. */
  score: number;
  /** The catalogue message that matched, for text matches. */
  matchedMessage?: string;
}

export interface LookupResult {
  query: string;
  by: 'code' | 'text';
  matches: readonly LookupMatch[];
}

/** Shorter pasted fragments than this would match nearly everything. */
const MIN_FRAGMENT_CHARS = 4;
const MIN_SIMILAR_WORDS = 3;

interface IndexedMessage {
  entry: ErrorEntry;
  message: string;
  normalized: string;
  words: ReadonlySet<string>;
}

const INDEX: readonly IndexedMessage[] = ERROR_CATALOGUE.flatMap((entry) =>
  entry.messages.map((message) => {
    const words = normalizeWords(message);
    return { entry, message, normalized: words.join(' '), words: new Set(words) };
  }),
);

function textMatch(query: string, queryWords: readonly string[], item: IndexedMessage): LookupMatch | undefined {
  const base = { entry: item.entry, matchedMessage: item.message };
  if (item.normalized === '') return undefined;
  if (query === item.normalized) return { ...base, kind: 'message', score: 0.95 };
  if (query.length >= MIN_FRAGMENT_CHARS && item.normalized.includes(query)) {
    return { ...base, kind: 'fragment', score: 0.5 + 0.4 * (query.length / item.normalized.length) };
  }
  if (` ${query} `.includes(` ${item.normalized} `)) {
    return { ...base, kind: 'contains_message', score: 0.5 + 0.4 * (item.normalized.length / query.length) };
  }
  const distinct = new Set(queryWords);
  if (distinct.size < MIN_SIMILAR_WORDS) return undefined;
  let shared = 0;
  for (const word of distinct) if (item.words.has(word)) shared += 1;
  const precision = shared / distinct.size;
  const recall = shared / item.words.size;
  if (precision < 0.75 || recall < 0.4) return undefined;
  return { ...base, kind: 'similar_words', score: 0.2 + 0.3 * ((2 * precision * recall) / (precision + recall)) };
}

/** Ties (several codes share a wording) go to the current API before the sunset On-Premises one. */
const API_RANK: Readonly<Record<ErrorApi, number>> = { cloud: 0, marketing_messages: 1, graph: 2, on_premises: 3 };

function ranked(matches: Iterable<LookupMatch>): LookupMatch[] {
  const best = new Map<ErrorEntry, LookupMatch>();
  for (const match of matches) {
    const current = best.get(match.entry);
    if (current === undefined || match.score > current.score) best.set(match.entry, match);
  }
  return [...best.values()].sort(
    (a, b) => b.score - a.score || API_RANK[a.entry.api] - API_RANK[b.entry.api] || a.entry.code - b.entry.code,
  );
}

/** Every entry the pasted text could be, best first. Never throws. */
export function lookupText(text: string): LookupMatch[] {
  const matches: LookupMatch[] = [];
  for (const code of codesMentioned(text)) {
    const entry = findErrorByCode(code);
    if (entry !== undefined) matches.push({ entry, kind: 'code_in_text', score: 0.99 });
  }
  const queryWords = normalizeWords(stripCodeMarkers(text));
  const query = queryWords.join(' ');
  if (query !== '') {
    for (const item of INDEX) {
      const match = textMatch(query, queryWords, item);
      if (match !== undefined) matches.push(match);
    }
  }
  return ranked(matches);
}

/** Entries for pasted text, best first; a bare code ("131049") is looked up as a code. */
export function findErrorsByText(text: string): ErrorEntry[] {
  return lookupError(text).matches.map((match) => match.entry);
}

const NUMERIC_QUERY = /^\(?#?\s*(\d{1,9})\s*\)?$/;

/** A code ("131049", "#131049") is looked up by code; anything else as pasted English text. */
export function lookupError(query: string): LookupResult {
  const numeric = NUMERIC_QUERY.exec(query.trim());
  if (numeric?.[1] !== undefined) {
    const entry = findErrorByCode(Number(numeric[1]));
    return { query, by: 'code', matches: entry === undefined ? [] : [{ entry, kind: 'code', score: 1 }] };
  }
  return { query, by: 'text', matches: lookupText(query) };
}
