import type { ErrorEntry, RetryRule } from '../../core/error-entry.js';

/** Human text for `pacer explain`: the catalogue page with the facts an operator acts on. */
export function renderErrorPage(entry: ErrorEntry): string {
  const code = entry.codeTo === undefined ? String(entry.code) : `${entry.code}–${entry.codeTo}`;
  const e = entry.effects;
  return [
    `${code} · ${entry.name}  [${entry.class}]`,
    `Meta says: "${entry.messages[0] ?? ''}"`,
    '',
    wrap('What it means', entry.page.meaning),
    wrap('Why it happens', entry.page.cause),
    wrap('Retry', `${retryLabel(entry.retry)}. ${entry.page.retry}`),
    wrap('What to do', entry.page.action),
    `Effect — contact: ${e.contact}; template: ${e.template}; sender: ${e.sender}; campaign: ${e.campaign}. Reported in: ${entry.surface.replace('_', ' ')}.`,
  ].join('\n');
}

export function retryLabel(rule: RetryRule): string {
  switch (rule.kind) {
    case 'never':
      return 'Never retried';
    case 'cap_cool_off':
      return 'Retried only after the cool-off (24 h or more)';
    case 'when_window_opens':
      return 'Sent once the contact opens a conversation window';
    case 'backoff':
      return `Retried with ${rule.schedule.replace('_', ' ')} backoff`;
    case 'after_operator_fix':
      return 'Waits for an operator fix';
    case 'reroute_cloud':
      return 'Resent at once through the Cloud API';
  }
}

function wrap(title: string, text: string, width = 100): string {
  const lines: string[] = [];
  let line = `${title}: `;
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > width) {
      lines.push(line.trimEnd());
      line = '  ';
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return `${lines.join('\n')}\n`;
}
