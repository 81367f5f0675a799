import type { FieldError } from '../../app/contact-row.js';
import type { ContactFileFormat, ContactSource } from '../../app/contact-source.js';

/**
 * Contact files as `pacer import contacts` uses them; the import adapter opens and writes them (wired
 * in src/main). Each may throw ImportInputError: the command line is wrong, or the file unreadable.
 */
export interface ContactFiles {
  /** The format named by `--format`, or else by the file's extension. */
  formatOf(file: string, format: string | undefined): ContactFileFormat;
  /** `delimiter`: CSV only; null tells it from the header row. */
  open(file: string, format: ContactFileFormat, options: { delimiter: string | null }): Promise<ContactSource>;
  /** A file in the input's format that receives every refused row as given, with its reasons, as the import goes. */
  openErrorsFile(file: string, format: ContactFileFormat): Promise<RejectionsFile>;
}

export interface RejectionsFile {
  header(raw: string, delimiter: string): Promise<void>;
  add(rejection: { line: number; errors: readonly FieldError[]; raw: string }): Promise<void>;
  close(): Promise<void>;
}
