import type { CampaignPreview, PreviewSample } from '../../app/preview-campaign.js';
import type { MessagePreview } from '../../core/template-preview.js';
import { mask } from '../presenters/mask.js';

const indent = (text: string, by = '    '): string[] => text.split('\n').map((line) => `${by}${line}`);

/** A media header as the preview shows it (`[image https://…]`): WhatsApp bolds text headers only. */
const MEDIA_HEADER = /^\[(?:image|video|document|location)(?: (?:https?:\/\/\S+|media \S+))?\]$/;

/** The message as the recipient reads it: header, body, footer, then one line per button. */
export function messageLines(m: MessagePreview): string[] {
  return [
    ...(m.header === null ? [] : indent(MEDIA_HEADER.test(m.header) ? m.header : `*${m.header}*`)),
    ...indent(m.body),
    ...(m.footer === null ? [] : indent(m.footer)),
    ...m.buttons.map((b) => `    [ ${b} ]`),
  ];
}

function sampleLines(s: PreviewSample, n: number): string[] {
  const who = `${n}. contact ${s.contactId} · ${mask(s.to)}${s.inSegment ? '' : ' · not in the segment'}`;
  if ('skipped' in s) return [`  ${who} · would be skipped (${s.skipped.reason}): ${s.skipped.detail}`];
  if (s.preview === null) return [`  ${who} · sent as registered (text not known)`];
  return [`  ${who}`, ...messageLines(s.preview), ''];
}

/** `pacer campaign preview` for people: each sample as its recipient reads it, then the audience. */
export function renderCampaignPreview(p: CampaignPreview): string {
  const t = p.template;
  const a = p.audience;
  const skippedTotal = a.skipped.reduce((n, g) => n + g.count, 0);
  const groups = a.skipped.map((g) => `  ${String(g.count).padStart(7)}  ${g.reason} · ${g.slot} · ${g.detail}`);
  const lines = [
    `Campaign #${p.campaignId} · template ${t.name} (${t.language}, ${t.category})`,
    ...(p.notice === null ? [] : [`Note: ${p.notice}`]),
    '',
    p.samples.length === 0 ? 'No recipient to show: the segment selects nobody now.' : 'As recipients would read it:',
    ...p.samples.flatMap((s, i) => sampleLines(s, i + 1)),
    '',
    `Audience: ${a.matched} matched · ${a.wouldSend} would be sent · ${skippedTotal} would be skipped`,
    ...(groups.length === 0 ? [] : ['  Skipped for a template value:', ...groups]),
  ];
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}
