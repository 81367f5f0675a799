/**
 * A `multipart/form-data` body (RFC 7578) split into its text fields and files: enough for the one
 * form the media upload takes. No parser for it is among the dependencies, and this form needs no
 * streaming: the simulator holds uploads in memory anyway.
 */

export interface FormFile {
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export interface MultipartForm {
  fields: Map<string, string>;
  files: Map<string, FormFile>;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` content type, or null when the type is another. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (contentType === undefined || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const params = parameters(contentType);
  const boundary = params.get('boundary');
  return boundary !== undefined && boundary.length >= 1 && boundary.length <= 70 ? boundary : null;
}

export function parseMultipart(boundary: string, body: Buffer): MultipartForm | { error: string } {
  const delimiter = Buffer.from(`--${boundary}`);
  const form: MultipartForm = { fields: new Map(), files: new Map() };
  let at = body.indexOf(delimiter);
  if (at === -1) return { error: 'the body has no part with the declared boundary' };
  for (;;) {
    const after = at + delimiter.length;
    if (body.subarray(after, after + 2).toString() === '--') return form; // the closing delimiter
    if (!body.subarray(after, after + 2).equals(CRLF)) return { error: 'a boundary line is not followed by a line break' };
    const start = after + 2;
    const end = body.indexOf(Buffer.concat([CRLF, delimiter]), start);
    if (end === -1) return { error: 'the body ends before its closing boundary' };
    const part = readPart(body.subarray(start, end));
    if ('error' in part) return part;
    // A part with a filename is a file; any other is a text field (some clients type those too).
    if (part.filename === null) {
      if (!form.fields.has(part.name)) form.fields.set(part.name, part.data.toString('utf8'));
    } else if (!form.files.has(part.name)) {
      form.files.set(part.name, { filename: part.filename, contentType: part.contentType, data: part.data });
    }
    at = end + CRLF.length;
  }
}

interface Part extends FormFile {
  name: string;
}

function readPart(raw: Buffer): Part | { error: string } {
  const split = raw.indexOf(HEADERS_END);
  const headerText = split === -1 ? raw.toString('utf8') : raw.subarray(0, split).toString('utf8');
  const data = split === -1 ? Buffer.alloc(0) : raw.subarray(split + HEADERS_END.length);
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (disposition === undefined || !/^form-data\s*(;|$)/i.test(disposition))
    return { error: 'a part has no Content-Disposition: form-data' };
  const params = parameters(disposition);
  const name = params.get('name');
  if (name === undefined || name === '') return { error: 'a part has no name' };
  return { name, filename: params.get('filename') ?? null, contentType: headers.get('content-type') ?? null, data };
}

/** `key=value` and `key="quoted value"` parameters after the first `;` of a header value. */
function parameters(value: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const m of value.matchAll(/;\s*([A-Za-z0-9!#$&+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g)) {
    const key = (m[1] ?? '').toLowerCase();
    if (!params.has(key)) params.set(key, m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? ''));
  }
  return params;
}
