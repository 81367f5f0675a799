import type { TemplateDefinition } from './template-definition.js';
import type { ResolvedValue } from './template-slot-values.js';

/** A template message as its recipient reads it: header, body, footer and buttons with the values in. */
export interface MessagePreview {
  header: string | null;
  body: string;
  footer: string | null;
  buttons: string[];
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function fill(text: string, part: 'header' | 'body', values: ReadonlyMap<string, ResolvedValue>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = values.get(`${part}.${name}`);
    return v?.kind === 'text' ? v.text : whole;
  });
}

function textOf(values: ReadonlyMap<string, ResolvedValue>, key: string): string | null {
  const v = values.get(key);
  return v?.kind === 'text' ? v.text : null;
}

export function previewMessage(def: TemplateDefinition, values: ReadonlyMap<string, ResolvedValue>): MessagePreview {
  const media = values.get('header');
  const header =
    def.header === null
      ? null
      : def.header.format === 'TEXT'
        ? fill(def.header.text ?? '', 'header', values)
        : media?.kind === 'media'
          ? `[${def.header.format.toLowerCase()} ${'link' in media.media ? media.media.link : `media ${media.media.mediaId}`}]`
          : `[${def.header.format.toLowerCase()}]`;
  // Authentication bodies are Meta's fixed sentence around the code.
  const body =
    def.body.text === null ? `*${textOf(values, 'body.1') ?? '{{1}}'}* is your verification code.` : fill(def.body.text, 'body', values);
  const buttons = def.buttons.map((b) => {
    const label = b.text ?? b.type;
    const value = textOf(values, `button.${b.index}`);
    if (b.otp) return `${label}: ${textOf(values, 'body.1') ?? ''}`;
    if (b.type === 'URL' && b.url !== null) return `${label} → ${b.url.replace(/\{\{[^{}]*\}\}$/, value ?? '')}`;
    if (b.type === 'COPY_CODE') return `${label}: ${value ?? ''}`;
    return label;
  });
  return { header, body, footer: def.footer, buttons };
}
