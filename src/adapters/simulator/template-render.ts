import type { Rendered } from './ground-truth.js';
import { placeholdersOf, substitute, type ButtonShape, type TemplateShape } from './template-shape.js';

/** A template's parameter values once the send passed Meta's checks. */
export interface FilledTemplate {
  /** The header as shown: its text with the value in, or `[image https://…]` / `[image id …]` for media. */
  header: string | null;
  /** Body values by placeholder (`1`, `2`, … or the names). */
  body: ReadonlyMap<string, string>;
  /** The value of each button that takes one, by index: a URL suffix, an authentication or offer code. */
  buttons: ReadonlyMap<number, string>;
}

/**
 * What the recipient reads: the header, the body with its values in, the footer, and each button's
 * label (`label → where it leads` for URL buttons, `label → code` for code buttons).
 */
export function renderTemplate(shape: TemplateShape, filled: FilledTemplate): Rendered {
  return {
    header: shape.header === null ? null : filled.header,
    body: substitute(shape.body.text, filled.body),
    footer: shape.footer,
    buttons: shape.buttons.map((b, i) => buttonLabel(b, filled.buttons.get(i))),
  };
}

function buttonLabel(button: ButtonShape, value: string | undefined): string {
  switch (button.type) {
    case 'URL':
      return `${button.text} → ${button.placeholder === null || value === undefined ? button.url : substitute(button.url, new Map([[button.placeholder, value]]))}`;
    case 'OTP': {
      const code = value ?? '';
      const placeholder = button.url === null ? undefined : placeholdersOf(button.url)[0];
      return `${button.text} → ${button.url === null || placeholder === undefined ? code : substitute(button.url, new Map([[placeholder, code]]))}`;
    }
    case 'COPY_CODE':
      return `${button.text} → ${value ?? ''}`;
    case 'QUICK_REPLY':
    case 'OTHER':
      return button.text;
  }
}

/** A free-form text message: the body alone. */
export function renderText(body: string): Rendered {
  return { header: null, body, footer: null, buttons: [] };
}
