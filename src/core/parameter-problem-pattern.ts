/**
 * A recipient's parameter problem (`renderParameters`' detail) without that recipient's own value,
 * so the recipients skipped for the same reason count as one group: `header image: "http://x" is not
 * a URL` and `header image: "ftp://y" is not a URL` are both `header image: the link is not a URL`.
 * Details that carry no per-recipient value (`body {{1}}: first_name is missing`) stay as they are.
 */
export function problemPattern(detail: string): string {
  return detail
    .replace(/: "(?:[^"\\]|\\.)*" is not a URL$/, ': the link is not a URL')
    .replace(/links must be https, got \S*$/, 'links must be https')
    .replace(/makes the URL \d+ characters; Meta allows (\d+)$/, 'makes the URL longer than the $1 characters Meta allows')
    .replace(/is \d+ characters; Meta allows (\d+)$/, 'is longer than the $1 characters Meta allows');
}
