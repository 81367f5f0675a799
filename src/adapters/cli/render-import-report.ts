import type { ContactFileFormat } from '../../app/contact-source.js';
import type { ImportSummary } from '../../app/import-contacts.js';

/** What `pacer import contacts` prints: the summary, and the rejections and notes by line (the first thousand of each). */
export interface ImportReport extends ImportSummary {
  file: string;
  format: ContactFileFormat;
  errors: Array<{ line: number; field: string | null; reason: string; phone: string | null }>;
  errorsNotListed: number;
  notes: Array<{ line: number; note: string }>;
  notesNotListed: number;
}

const n = (x: number) => x.toLocaleString('en-US');

/** The human report: totals first, then each rejection and note by line. Phone numbers arrive masked. */
export function renderImportReport(r: ImportReport, errorsFile: string | null): string {
  const total = r.accepted + r.rejected;
  const lines: string[] = [];
  if (total === 0) {
    lines.push(`${r.file}: no rows to import.`);
    return lines.join('\n');
  }
  lines.push(
    `${r.file}: ${n(r.accepted)} of ${n(total)} rows imported (${n(r.created)} new contacts, ${n(r.updated)} updated)` +
      `${r.rejected > 0 ? `, ${n(r.rejected)} rejected` : ''}${r.duplicates > 0 ? `, ${n(r.duplicates)} repeated phone numbers` : ''}.`,
  );
  if (r.errors.length > 0) {
    lines.push('', 'Rejected rows:');
    for (const e of r.errors) {
      // Phone errors quote the masked number already; other errors name the row by it.
      const who = e.phone !== null && e.field?.toLowerCase() !== 'phone' ? ` (${e.phone})` : '';
      lines.push(`  line ${e.line}${e.field === null ? '' : ` ${e.field}`}${who}: ${e.reason}`);
    }
    if (r.errorsNotListed > 0)
      lines.push(`  … and ${n(r.errorsNotListed)} more${errorsFile === null ? ' (pass --errors FILE to get them all)' : ''}`);
  }
  if (errorsFile !== null && r.rejected > 0) lines.push(`All rejections written to ${errorsFile}.`);
  if (r.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of r.notes) lines.push(`  line ${note.line}: ${note.note}`);
    if (r.notesNotListed > 0) lines.push(`  … and ${n(r.notesNotListed)} more`);
  }
  return lines.join('\n');
}
