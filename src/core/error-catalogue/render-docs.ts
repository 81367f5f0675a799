import { ERROR_CLASSES } from '../error-class.js';
import { classSummary, classTitle } from '../error-class-label.js';
import type { ErrorEntry } from '../error-entry.js';
import {
  describeApi,
  describeCampaignEffect,
  describeContactEffect,
  describeRetry,
  describeSenderEffect,
  describeSurface,
  describeTemplateEffect,
} from './describe-entry.js';
import { codeLabel } from './find-by-code.js';

/** Rendering the error pages is pure; scripts/generate-error-docs.ts writes them, a test checks drift. */
const GENERATED_NOTE = '<!-- Generated from src/core/error-catalogue by `npm run docs:errors`. Edit the catalogue, not this file. -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export function errorPageFileName(entry: Pick<ErrorEntry, 'code' | 'codeTo'>): string {
  return `${codeLabel(entry)}.md`;
}

export function renderErrorPage(entry: ErrorEntry): string {
  const label = codeLabel(entry);
  const facts = errorFacts(entry, (c) => `\`${c}\``);
  return [
    `# ${label}: ${entry.name}`,
    '',
    '| | |',
    '|---|---|',
    ...facts.map(([key, value]) => `| ${key} | ${cell(value)} |`),
    '',
    '## What Meta is telling you',
    '',
    entry.page.meaning,
    '',
    '## Why it happens',
    '',
    entry.page.cause,
    '',
    '## Should you retry?',
    '',
    entry.page.retry,
    '',
    '## What to do',
    '',
    entry.page.action,
    '',
    "## Meta's wording",
    '',
    'Titles, messages and details seen for this code (lookup by pasted text matches any of them):',
    '',
    ...entry.messages.map((message) => `- "${message}"`),
    '',
    GENERATED_NOTE,
    '',
  ].join('\n');
}

export function renderErrorIndex(entries: readonly ErrorEntry[]): string {
  const sections = ERROR_CLASSES.flatMap((cls) => {
    const members = entries.filter((entry) => entry.class === cls).sort((a, b) => a.code - b.code);
    if (members.length === 0) return [];
    return [
      `## ${classTitle(cls)}`,
      '',
      `${classSummary(cls)}. Class \`${cls}\`.`,
      '',
      '| Code | Name | API | Retry |',
      '|---|---|---|---|',
      ...members.map(
        (entry) =>
          `| [${codeLabel(entry)}](${errorPageFileName(entry)}) | ${cell(entry.name)} | ${describeApi(entry.api)} | ${cell(describeRetry(entry.retry))} |`,
      ),
      '',
    ];
  });
  return [
    '# WhatsApp error codes',
    '',
    'Every code Pacer knows, grouped by what it means for sending. Each page says what Meta is telling you, ' +
      'why it happens, whether a retry can help, and what to do. `pacer explain <code | message text>` prints ' +
      'the same entry from the command line.',
    '',
    ...sections,
    GENERATED_NOTE,
    '',
  ].join('\n');
}

/** Every file under docs/errors, by file name. */
export function renderErrorDocs(entries: readonly ErrorEntry[]): ReadonlyMap<string, string> {
  const files = new Map<string, string>([['README.md', renderErrorIndex(entries)]]);
  for (const entry of entries) files.set(errorPageFileName(entry), renderErrorPage(entry));
  return files;
}

/** The facts table of a code's page, in both renderings (docs and dashboard); `code` formats the class id. */
export function errorFacts(entry: ErrorEntry, code: (cls: string) => string): [string, string][] {
  return [
    ['Class', `${classTitle(entry.class)} (${code(entry.class)})`],
    ['API', describeApi(entry.api)],
    ['Where it shows up', describeSurface(entry.surface)],
    ['Retry', describeRetry(entry.retry)],
    ['Contact', describeContactEffect(entry.effects.contact)],
    ['Template', describeTemplateEffect(entry.effects.template)],
    ['Sender', describeSenderEffect(entry.effects.sender)],
    ['Campaign', describeCampaignEffect(entry.effects.campaign)],
    ['Billed', 'No: failed messages are not charged'],
  ];
}
