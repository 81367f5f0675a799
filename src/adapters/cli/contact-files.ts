import type { ContactFileFormat, ContactSource } from '../../app/contact-source.js';

/**
 * Contact files as `pacer import contacts` uses them; the import adapter opens and writes them (wired
 * in src/main). Each may throw ImportInputError: the command line is wrong, or the file unreadable.
 */
export interface ContactFiles {
  /** The format named by `--format`, or else by the file's extension. */
  formatOf(file: string, format: string | undefined): ContactFileFormat;
  open(file: string, format: ContactFileFormat): Promise<ContactSource>;
  /** A CSV file that receives every rejection (line, field, reason) as the import goes. */
  openErrorsFile(file: string): Promise<RejectionsFile>;
}

export interface RejectionsFile {
  add(line: number, field: string | null, reason: string): Promise<void>;
  close(): Promise<void>;
}
